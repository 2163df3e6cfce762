"""The host's tables without any network: seats, views, refusals, bots, restarts."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from railgames.core.engine import Game
from railgames.core.errors import IllegalAction, MalformedAction
from railgames.core.record import GameRecord
from railgames.net.remote import merge_view
from railgames.net.service import TableService
from railgames.net.tables import Login, Member
from railgames.net.wire import decode as from_wire
from railgames.tables.remote import SeatView


class Inbox:
    """A member's messages, each put together with the ones before as the app does; and
    what an app's link to the host keeps of them (numbered, the views merged)."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.views: dict[str, SeatView] = {}
        self.merged: dict[str, dict[str, Any]] = {}

    def __call__(self, message: dict[str, Any]) -> None:
        message = json.loads(json.dumps(message))  # as it travels: JSON, nothing shared
        message["seq"] = len(self.messages) + 1
        self.messages.append(message)
        if "view" in message:
            self.views.setdefault(message["code"], SeatView(None)).take(message["view"])
            self.merged[message["code"]] = merge_view(self.merged.get(message["code"]),
                                                      message["view"])

    # --- as RemoteLink answers them
    @property
    def last_table(self) -> dict[str, Any] | None:
        return self.messages[-1] if self.messages else None

    def view_so_far(self, code: str) -> tuple[int, dict[str, Any] | None]:
        view = self.merged.get(code)
        return len(self.messages), merge_view(None, view) if view is not None else None

    def messages_after(self, code: str, seq: int) -> list[dict[str, Any]]:
        return [m for m in self.messages[seq:] if m.get("code") == code]

    @property
    def last(self) -> dict[str, Any]:
        return self.messages[-1]

    def view(self) -> dict[str, Any]:
        return self.views[self.last["code"]].seen


def kept(service: TableService, code: str) -> dict[str, Any]:
    """Table ``code`` as its store gives it back, as one JSON object (a table file)."""
    stored = service.store.load(code)
    data = stored.settings.model_dump(mode="json")
    data["record"] = None if stored.record is None else stored.record.model_dump(mode="json")
    return data


def member(name: str, key: str | None = None) -> tuple[Member, Inbox]:
    inbox = Inbox()
    return Member(login=Login(name=name, key=key, peer="127.0.0.1:1"), send=inbox), inbox


@pytest.fixture
def service(tmp_path: Path) -> TableService:
    return TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)


def two_player_table(service: TableService) -> tuple[str, Member, Inbox, Member, Inbox]:
    ann, ann_in = member("ann")
    bob, bob_in = member("bob")
    table = service.create(ann, "paris-connection", seats=3, humans=2)
    assert table.status == "waiting"
    assert "view" not in ann_in.last  # nothing to see before the game starts
    service.join(bob, table.code)
    assert table.status == "playing"
    asyncio.run(asyncio.wait_for(service.run_bots(table), 30))  # the bot may be drawn to start
    assert table.game is not None and table.game.prompt().seat in (0, 1)
    return table.code, ann, ann_in, bob, bob_in


def first_legal(service: TableService, code: str) -> dict[str, Any]:
    game = service.tables[code].game
    assert game is not None
    return game.legal_actions()[0].model_dump(mode="json")


def test_each_seat_sees_its_own_holdings_only(service: TableService) -> None:
    code, ann, ann_in, bob, bob_in = two_player_table(service)
    for inbox, mine in ((ann_in, 0), (bob_in, 1)):
        view = inbox.view()
        assert inbox.last["you"] == mine
        shares = [p.shares for p in view["state"].players]
        assert shares[mine] is not None
        assert all(s is None for i, s in enumerate(shares) if i != mine)
        dealt = [e.text for e in view["events"] if e.kind == "deal"]
        assert len(dealt) == 1 and dealt[0].startswith(["ann", "bob"][mine])


def test_a_move_reaches_every_seat(service: TableService) -> None:
    code, ann, ann_in, bob, bob_in = two_player_table(service)
    game = service.tables[code].game
    assert game is not None
    seat = game.prompt().seat
    mover = [ann, bob][seat]
    before = (len(ann_in.messages), len(bob_in.messages))
    service.act(mover, first_legal(service, code))
    assert len(ann_in.messages) > before[0] and len(bob_in.messages) > before[1]
    assert ann_in.last["version"] == bob_in.last["version"] == len(game.record.actions)
    saved = kept(service, code)
    assert saved["record"]["actions"] == game.record.actions  # saved after the action


def test_out_of_turn_is_refused_with_the_local_reason(service: TableService) -> None:
    code, ann, _, bob, _ = two_player_table(service)
    game = service.tables[code].game
    assert game is not None
    seat = game.prompt().seat
    before = list(game.record.actions)
    idle = [ann, bob][1 - seat]
    action = {**first_legal(service, code), "seat": 1 - seat}
    with pytest.raises(IllegalAction) as refused:
        service.act(idle, action)
    local = Game.replay(game.ruleset, game.record)
    with pytest.raises(IllegalAction) as local_refusal:
        local.apply(action)
    assert refused.value.reason == local_refusal.value.reason
    assert game.record.actions == before


def test_a_session_cannot_act_for_another_seat(service: TableService) -> None:
    code, ann, _, bob, _ = two_player_table(service)
    game = service.tables[code].game
    assert game is not None
    seat = game.prompt().seat
    before = list(game.record.actions)
    idle = [ann, bob][1 - seat]
    with pytest.raises(IllegalAction, match="cannot act for"):
        service.act(idle, first_legal(service, code))  # the mover's own action, forged
    assert game.record.actions == before
    with pytest.raises(MalformedAction):
        service.act([ann, bob][seat], {"type": "fly", "seat": seat})
    with pytest.raises(MalformedAction):
        service.act([ann, bob][seat], "build everything")
    assert game.record.actions == before


def test_watchers_see_the_public_view_and_cannot_act(service: TableService) -> None:
    code, ann, _, bob, _ = two_player_table(service)
    cat, cat_in = member("cat")
    service.join(cat, code)  # the seats are full: cat watches
    assert cat.seat is None
    view = cat_in.view()
    assert all(p.shares is None for p in view["state"].players)
    assert not [e for e in view["events"] if e.kind == "deal"]
    with pytest.raises(IllegalAction, match="watching"):
        service.act(cat, first_legal(service, code))


def test_reconnect_takes_the_same_seat_and_a_second_login_is_refused(service: TableService) -> None:
    code, ann, ann_in, bob, _ = two_player_table(service)
    holdings = ann_in.view()["state"].players[0].shares
    again, again_in = member("ann")
    with pytest.raises(IllegalAction, match="already playing"):
        service.join(again, code)
    service.leave(ann)
    service.join(again, code)
    assert again.seat == 0
    assert again_in.view()["state"].players[0].shares == holdings


def test_a_seat_taken_with_a_key_is_kept_for_that_key(service: TableService) -> None:
    dan, _ = member("dan", key="SHA256:one")
    table = service.create(dan, "paris-connection", seats=3, humans=2)
    service.leave(dan)
    other, _ = member("dan", key="SHA256:two")
    with pytest.raises(IllegalAction, match="kept for the key"):
        service.join(other, table.code)
    renamed, _ = member("daniel", key="SHA256:one")
    service.join(renamed, table.code)
    assert renamed.seat == 0


def test_undo_only_takes_back_your_own_move(service: TableService) -> None:
    code, ann, _, bob, _ = two_player_table(service)
    game = service.tables[code].game
    assert game is not None
    seat = game.prompt().seat
    mover, other = [ann, bob][seat], [ann, bob][1 - seat]
    before = list(game.record.actions)
    build = next(a for a in game.legal_actions() if a.type == "build")
    service.act(mover, build.model_dump(mode="json"))
    with pytest.raises(IllegalAction, match="not yours"):
        service.undo(other)
    service.undo(mover)
    assert game.record.actions == before


def test_bots_move_on_the_host(service: TableService) -> None:
    code, ann, ann_in, bob, _ = two_player_table(service)
    table = service.tables[code]
    game = table.game
    assert game is not None

    async def play_until_bot_has_moved() -> None:
        while not any(a["seat"] == 2 for a in game.record.actions):
            seat = game.prompt().seat
            if seat == 2:
                await service.run_bots(table)
            else:
                service.act([ann, bob][seat], game.legal_actions()[-1].model_dump(mode="json"))

    asyncio.run(asyncio.wait_for(play_until_bot_has_moved(), 30))
    assert ann_in.last["version"] == len(game.record.actions)


def test_bots_think_in_a_worker_process(tmp_path: Path) -> None:
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=1)
    try:
        ann, _ = member("ann")
        table = service.create(ann, "paris-connection", seats=3, humans=1)
        game = table.game
        assert game is not None

        async def until_ann_moves() -> None:
            while game.prompt().seat != 0:
                await service.run_bots(table)

        asyncio.run(asyncio.wait_for(until_ann_moves(), 60))
        first = game.prompt().seat
        service.act(ann, game.legal_actions()[-1].model_dump(mode="json"))
        asyncio.run(asyncio.wait_for(service.run_bots(table), 60))
        assert first == 0 and any(a["seat"] != 0 for a in game.record.actions)
        assert game.prompt().seat == 0 or game.is_over()
    finally:
        service.close()


def test_an_empty_seat_goes_to_a_bot_and_comes_back(tmp_path: Path) -> None:
    service = TableService(tmp_path / "tables", bot_delay=0, bot_takeover=60, bot_workers=0)
    code, ann, _, bob, _ = two_player_table(service)
    table = service.tables[code]
    service.leave(bob)
    left = table.seats[1].empty_since
    assert left is not None
    service.tick(left + 30)
    assert not table.seats[1].bot_taken
    service.tick(left + 61)
    assert table.seats[1].bot_taken and table.bot_moves(1)
    back, _ = member("bob")
    service.join(back, code)
    assert back.seat == 1 and not table.seats[1].bot_taken


def test_a_restarted_host_brings_its_tables_back(tmp_path: Path) -> None:
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    code, ann, ann_in, bob, _ = two_player_table(service)
    game = service.tables[code].game
    assert game is not None
    service.act([ann, bob][game.prompt().seat], first_legal(service, code))
    holdings = ann_in.view()["state"].players[0].shares

    again = TableService(tmp_path / "tables", bot_delay=0)
    again.load()
    table = again.tables[code]
    assert table.game is not None and table.game.record.actions == game.record.actions
    ann2, ann2_in = member("ann")
    again.join(ann2, code)
    assert ann2.seat == 0 and ann2_in.view()["state"].players[0].shares == holdings


class LogLines(logging.Handler):
    """The host's structured log lines, as the fields each carries."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[dict[str, Any]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(getattr(record, "fields", {}))

    def __enter__(self) -> LogLines:
        logger = logging.getLogger("railgames.host")
        self.level = logger.level
        logger.setLevel(logging.INFO)
        logger.addHandler(self)
        return self

    def __exit__(self, *exc: object) -> None:
        logger = logging.getLogger("railgames.host")
        logger.removeHandler(self)
        logger.setLevel(self.level)

    def kind(self, event: str) -> list[dict[str, Any]]:
        return [line for line in self.lines if line.get("event") == event]


def test_a_damaged_table_file_is_skipped(tmp_path: Path) -> None:
    root = tmp_path / "tables"
    root.mkdir()
    (root / "ABCD.json").write_text("{not json")
    service = TableService(root)
    with LogLines() as log:
        service.load()
    assert service.tables == {}
    [line] = log.kind("table_not_restored")
    assert line["file"] == str(root / "ABCD.json")
    assert line["reason"].startswith(str(root / "ABCD.json")) and "JSON error" in line["reason"]


def saved_table(tmp_path: Path) -> tuple[TableService, str, dict[str, Any]]:
    """A playing table with a move made, saved, and its file as JSON data."""
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    code, ann, _, bob, _ = two_player_table(service)
    game = service.tables[code].game
    assert game is not None
    service.act([ann, bob][game.prompt().seat], first_legal(service, code))
    return service, code, service.tables[code].to_dict()


def spoil(data: dict[str, Any], how: str) -> str:
    """The table file's text, damaged in one way a save can be."""
    data = json.loads(json.dumps(data))
    text = None
    if how == "seed as text":  # a lax reader would take "123" as the number 123
        data["record"]["seed"] = str(data["record"]["seed"])
    elif how == "huge number":
        text = json.dumps(data).replace(f'"seed": {data["seed"]}', '"seed": ' + "9" * 40, 1)
    elif how == "unknown field":
        data["record"]["cheat"] = True
    elif how == "players swapped":
        players = data["record"]["players"]
        players[0], players[1] = players[1], players[0]
    elif how == "another game":
        data["game"] = "steel-driver"
    elif how == "forged action":
        data["record"]["actions"].append({"type": "no_such_move", "seat": 0})
    elif how == "humans miscounted":
        data["humans"] = 3
    elif how == "another code":
        data["code"] = "WXYZ"
    elif how == "truncated":
        text = json.dumps(data)[:-40]
    elif how == "list of seats as text":
        data["seats"] = "ann, bob"
    return text if text is not None else json.dumps(data)


@pytest.mark.parametrize("how", ["seed as text", "huge number", "unknown field", "players swapped",
                                 "another game", "forged action", "humans miscounted",
                                 "another code", "truncated", "list of seats as text"])
def test_a_bad_table_file_is_one_log_line_and_the_others_come_back(tmp_path: Path,
                                                                   how: str) -> None:
    service, code, data = saved_table(tmp_path)
    bad = service.root / "BADD.json"
    data["code"] = "BADD"
    bad.write_text(spoil(data, how))
    again = TableService(service.root, bot_delay=0, bot_workers=0)
    with LogLines() as log:
        again.load()
    assert set(again.tables) == {code}  # the good table is back, the bad one is not
    [line] = log.kind("table_not_restored")
    assert line["file"] == str(bad) and line["reason"].startswith(str(bad))
    assert "\n" not in line["reason"] and "Traceback" not in line["reason"]
    assert [r["code"] for r in log.kind("table_restored")] == [code]


def test_a_table_file_over_the_size_limit_is_not_read(tmp_path: Path) -> None:
    from railgames.net.tablefile import MAX_TABLE_BYTES

    root = tmp_path / "tables"
    root.mkdir()
    big = root / "BIGG.json"
    with big.open("wb") as handle:
        handle.truncate(MAX_TABLE_BYTES + 1)  # sparse: the reader refuses it by its size
    with LogLines() as log:
        TableService(root).load()
    [line] = log.kind("table_not_restored")
    assert "too large" in line["reason"] and line["file"] == str(big)


def test_a_waiting_table_comes_back_strictly_too(tmp_path: Path) -> None:
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    ann, _ = member("ann")
    table = service.create(ann, "paris-connection", seats=3, humans=2)
    again = TableService(service.root, bot_delay=0, bot_workers=0)
    again.load()
    back = again.tables[table.code]
    assert back.game is None and [s.name for s in back.seats] == ["ann", "", table.seats[2].name]


def test_bad_table_settings_are_refused(service: TableService) -> None:
    ann, _ = member("ann")
    with pytest.raises(IllegalAction, match="players"):
        service.create(ann, "paris-connection", seats=9, humans=1)
    with pytest.raises(IllegalAction):
        service.create(ann, "paris-connection", seats=3, humans=4)
    with pytest.raises(IllegalAction, match="no table"):
        service.join(ann, "ZZZZ")


@pytest.mark.parametrize("game_id", ["new-england", "paris-connection", "steel-driver",
                                     "railways-of-the-world", "american-rails"])
def test_three_players_play_a_table_to_the_end(service: TableService, game_id: str) -> None:
    """Every action through the host, each from the seat whose turn it is, to the final scores."""
    members = [member(n) for n in ("ann", "bob", "cat")]
    table = service.create(members[0][0], game_id, seats=3, humans=3)
    for m, _ in members[1:]:
        service.join(m, table.code)
    game = table.game
    assert game is not None
    import random

    pick = random.Random(7)
    for _ in range(20_000):
        prompt = game.prompt()
        if prompt is None:
            break
        action = pick.choice(game.legal_actions())
        service.act(members[prompt.seat][0], action.model_dump(mode="json"))
    assert table.status == "over"
    for _m, inbox in members:
        view = inbox.view()
        assert view["prompt"] is None and view["result"] is not None
        assert view["record"] is not None  # over: the whole game may be stepped through
        assert inbox.last["status"] == "over"
    saved = kept(service, table.code)
    replayed = Game.replay(game.ruleset, GameRecord.model_validate(saved["record"]))
    assert replayed.result() == game.result()


def test_a_remote_seat_answers_as_a_table_does(service: TableService) -> None:
    """The game screen's side: view, prompt, events, and what changed since a mark."""
    from railgames.tables.remote import RemoteSeat

    code, ann, ann_in, bob, bob_in = two_player_table(service)
    game = service.tables[code].game
    assert game is not None

    class Link:
        """Ann's messages as her app's link keeps them; nothing is sent in this test."""

        last_table = property(lambda self: ann_in.last_table)
        view_so_far = staticmethod(ann_in.view_so_far)
        messages_after = staticmethod(ann_in.messages_after)

        def request(self, message: dict[str, Any]) -> dict[str, Any]:
            raise AssertionError("nothing is sent in this test")

    seat = RemoteSeat(Link(), ann_in.last)  # type: ignore[arg-type]
    from railgames.tables.table import Table

    assert isinstance(seat, Table)  # the same interface as the local table and a recording
    assert seat.seat == 0 and not seat.read_only
    assert seat.view(0).players[0].shares is not None
    assert all(p.shares is None for p in seat.view(0).players[1:])
    mover = [ann, bob][game.prompt().seat]
    mark = seat.mark()
    build = next(a for a in game.legal_actions() if a.type == "build")
    service.act(mover, build.model_dump(mode="json"))
    assert seat.update(ann_in.last)
    change = seat.changes(mark)
    assert not change.full and any(e.kind == "build" for e in change.events)
    mark = seat.mark()
    service.undo(mover)
    seat.update(ann_in.last)
    assert seat.changes(mark).full
    assert seat.seen["record"] is None  # the record and its seed stay on the host until the end
    prompt = seat.prompt()
    assert prompt is not None
    if prompt.seat != 0:
        assert prompt.choices == []  # another seat's choices never reach this one


def test_a_table_is_played_on_the_board_its_host_chose(tmp_path: Path) -> None:
    """Railways of the World's boards take different numbers of players: Mexico two
    or three, the Eastern US three to six. The host's choice holds through a restart."""
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    ann, _ = member("ann")
    with pytest.raises(IllegalAction, match="3 to 6 players, not 2"):
        service.create(ann, "railways-of-the-world", seats=2, humans=1)
    with pytest.raises(IllegalAction, match="no board called 'paris-connection'"):
        service.create(ann, "railways-of-the-world", seats=3, humans=1, map_id="paris-connection")
    table = service.create(ann, "railways-of-the-world", seats=2, humans=1, map_id="rotw-mexico")
    game = service.tables[table.code].game
    assert game is not None and game.record.map == "rotw-mexico"
    assert not list((tmp_path / "tables").glob(".tmp-*"))
    again = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    again.load()
    restored = again.tables[table.code]
    assert restored.map_id == "rotw-mexico"
    assert restored.game is not None and restored.game.record.map == "rotw-mexico"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs Linux's /proc to see the workers")
def test_a_killed_host_leaves_no_bot_worker_behind(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import textwrap
    import time

    script = textwrap.dedent("""
        import asyncio, sys, time
        from pathlib import Path
        from railgames.core.bots import RandomBot
        from railgames.core.engine import Game
        from railgames.core.record import PlayerSpec
        from railgames.games import load_ruleset
        from railgames.net.service import TableService
        service = TableService(Path(sys.argv[1]), bot_workers=1)
        rules = load_ruleset("paris-connection")
        game = Game.new(rules, [PlayerSpec(name=n, kind="random") for n in "ABC"], 1)
        prompt = game.prompt()
        asyncio.run(service.bots._think(RandomBot(1), rules, game.view(prompt.seat), prompt))
        print("thought", flush=True)
        time.sleep(60)
    """)
    host = subprocess.Popen([sys.executable, "-c", script, str(tmp_path)], stdout=subprocess.PIPE,
                            text=True)
    try:
        assert host.stdout is not None and host.stdout.readline().strip() == "thought"
        children = subprocess.run(["pgrep", "-P", str(host.pid)], capture_output=True,
                                  text=True).stdout.split()
        assert children, "the host started no worker"
    finally:
        host.send_signal(signal.SIGKILL)
        host.wait(10)

    def running(pid: str) -> bool:
        try:
            return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
        except OSError:
            return False

    deadline = time.monotonic() + 10
    while any(running(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in children if running(pid)]


class ServiceLink:
    """A link that asks the service directly, as the table socket would for ``who``."""

    def __init__(self, service: TableService, who: Member, inbox: Inbox) -> None:
        self.service, self.who = service, who
        self.last_table: dict[str, Any] | None = None
        self.sent: list[dict[str, Any]] = []
        self.view_so_far = inbox.view_so_far
        self.messages_after = inbox.messages_after

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        from railgames.tables.recording import Recording

        self.sent.append(message)
        op = message["op"]
        if op == "history":
            table, ruleset, record = self.service.history_record(self.who)
            recording = Recording(ruleset, record, seat=self.who.seat)
            return {"ok": True, **self.service.history_opened(self.who, table, recording)}
        if op == "history_at":
            return {"ok": True, **self.service.history_at(self.who, message["position"])}
        if op == "history_close":
            self.service.history_closed(self.who)
            return {"ok": True}
        raise AssertionError(op)


def test_history_at_a_host_table_shows_only_what_the_seat_may_see(service: TableService) -> None:
    """History mid-game, for a remote seat: every position as that seat saw it, nothing more."""
    from railgames.tables.remote import RemoteHistory, RemoteSeat

    code, ann, ann_in, bob, bob_in = two_player_table(service)
    game = service.tables[code].game
    assert game is not None
    for _ in range(4):
        mover = [ann, bob][game.prompt().seat]
        service.act(mover, first_legal(service, code))
    played = len(game.record.actions)
    link = ServiceLink(service, bob, bob_in)
    seat = RemoteSeat(link, bob_in.last)  # type: ignore[arg-type]
    history = RemoteHistory.open(seat)
    assert history.length == played and history.at_end and history.read_only
    # Bob's own deal and holdings, never Ann's, at every position.
    assert any(e.text.startswith("bob is dealt") for e in history.all_events())
    assert not any(e.text.startswith("ann is dealt") for e in history.all_events())
    for position in range(played, -1, -1):
        history.seek(position)
        assert history.position == position
        players = history.view().players
        assert players[1].shares is not None and players[0].shares is None
        prompt = history.prompt()
        if prompt is not None and prompt.seat != 1:
            assert prompt.choices == [] and prompt.amount is None
    assert history.turn_at(0) == 1 and history.position_of_turn(1) == 0
    # Stepping back never asks twice for a position, and nothing reaches the host but questions.
    asked = len(link.sent)
    history.seek(played)
    history.seek(0)
    assert len(link.sent) == asked
    # The record and its seed stay on the host.
    assert all(set(m) <= {"op", "position"} for m in link.sent)
    history.close()
    assert bob.history is None
    with pytest.raises(IllegalAction):
        history.submit(first_legal(service, code))
    with pytest.raises(IllegalAction, match="open the history first"):
        service.history_at(bob, 0)


def test_history_for_a_watcher_is_the_public_view(service: TableService) -> None:
    code, ann, ann_in, bob, bob_in = two_player_table(service)
    watcher, _ = member("zed")
    service.join(watcher, code, watch=True)
    table, ruleset, record = service.history_record(watcher)
    from railgames.tables.recording import Recording

    answer = service.history_opened(watcher, table, Recording(ruleset, record, seat=None))
    events = from_wire(json.loads(json.dumps(answer["events"])))
    assert not any(" is dealt" in e.text for e in events if e.kind == "deal")
    at = from_wire(json.loads(json.dumps(answer["at"])))
    assert all(p.shares is None for p in at["state"].players)


def test_no_history_before_the_game_starts(service: TableService) -> None:
    ann, _ = member("ann")
    service.create(ann, "paris-connection", seats=3, humans=2)
    with pytest.raises(IllegalAction, match="not started"):
        service.history_record(ann)


def test_on_the_loop_table_files_are_written_in_order_by_one_thread(tmp_path: Path) -> None:
    """The host's loop never waits for the disk; every action still reaches the file."""
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    members = [member(n) for n in ("ann", "bob", "cat")]

    async def play() -> str:
        table = service.create(members[0][0], "paris-connection", seats=3, humans=3)
        for m, _ in members[1:]:
            service.join(m, table.code)
        game = table.game
        assert game is not None
        for _ in range(12):
            prompt = game.prompt()
            assert prompt is not None
            service.act(members[prompt.seat][0], first_legal(service, table.code))
        assert service._writer is not None  # the writes went to the writer thread
        return table.code

    code = asyncio.run(play())
    service.flush()
    saved = kept(service, code)
    game = service.tables[code].game
    assert game is not None and saved["record"]["actions"] == game.record.actions
    assert not list(service.root.glob(".tmp-*"))


def test_a_tables_hints_setting_is_kept_sent_to_its_seats_and_answered_by_them(
        tmp_path: Path) -> None:
    """Hints off for a serious game: in the table's file, after a restart, and at each seat."""
    from railgames.tables.remote import RemoteSeat

    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    ann, ann_in = member("ann")
    serious = service.create(ann, "steel-driver", seats=3, humans=1, hints=False)
    bob, bob_in = member("bob")
    friendly = service.create(bob, "steel-driver", seats=3, humans=1)
    with pytest.raises(MalformedAction, match="hints"):
        service.create(ann, "steel-driver", seats=3, humans=1, hints="yes")  # type: ignore[arg-type]
    assert kept(service, serious.code)["hints"] is False
    assert kept(service, friendly.code)["hints"] is True

    class Link:
        def __init__(self, inbox: Inbox) -> None:
            self.last_table = inbox.last_table
            self.view_so_far = inbox.view_so_far
            self.messages_after = inbox.messages_after

    assert ann_in.last["hints"] is False and bob_in.last["hints"] is True
    off = RemoteSeat(Link(ann_in), ann_in.last)  # type: ignore[arg-type]
    on = RemoteSeat(Link(bob_in), bob_in.last)  # type: ignore[arg-type]
    reason = off.why_no_hint()
    assert reason is not None and "hints are off" in reason and "\n" not in reason
    assert on.why_no_hint() is None

    again = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    again.load()
    assert again.tables[serious.code].hints is False and again.tables[friendly.code].hints


def test_a_table_file_with_a_hints_setting_that_is_no_yes_or_no_is_refused(tmp_path: Path) -> None:
    from railgames.core.errors import RecordError
    from railgames.net.tablefile import parse_table

    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    ann, _ = member("ann")
    code = service.create(ann, "steel-driver", seats=3, humans=1).code
    data = kept(service, code)
    for spoilt in ("yes", 1, None):
        data["hints"] = spoilt
        with pytest.raises(RecordError, match="hints"):
            parse_table(json.dumps({**data, "format": 1}), "t.json", code)
