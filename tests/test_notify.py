"""Notifications through --notify-command: once per event across restarts, muted tables
left out, failing commands retried a bounded number of times off the host's loop, the
player's settings refused in one line when hostile, and a damaged outbox set aside."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from railgames.net import ops
from railgames.net.notify import OUTBOX, Notifier
from railgames.net.pace import ManualClock, Pace
from railgames.net.profiles import Profiles
from railgames.net.service import TableService
from railgames.net.tables import Login, Member
from railgames.net.tableserver import TableServer
from tests.test_host_tables import LogLines

DOCS = Path(__file__).resolve().parent.parent / "docs"
TURN = Pace(mode="turn", move_hours=24, on_timeout="remind")
NAMES = ("ann", "bob", "cy")


def person(name: str) -> Member:
    return Member(login=Login(name=name, peer="127.0.0.1:1"), send=lambda message: None)


def new_table(service: TableService, pace: Pace = TURN) -> tuple[str, list[Member]]:
    """A turn-based table of ann, bob and cy, under way."""
    members = [person(n) for n in NAMES]
    table = service.create(members[0], "paris-connection", seats=3, humans=3, pace=pace)
    for m in members[1:]:
        service.join(m, table.code)
    assert table.status == "playing"
    return table.code, members


class Host:
    """A host's tables and a notifier over them, with no network (restarted by making
    another over the same folder)."""

    def __init__(self, root: Path, command: str, clock: ManualClock, **kw: Any) -> None:
        self.service = TableService(root / "tables", bot_delay=0, bot_workers=0, clock=clock)
        self.server = TableServer(self.service, root / "socket" / "tables.sock")
        self.server.profiles = Profiles(root / "host" / "profiles")
        self.notifier = Notifier(command, root / "host" / "outbox", clock=clock,
                                 join_hint="ssh -p 2222 {player}@games.example, then table {code}",
                                 **{"retry_pauses": (0.0, 0.0), **kw})
        self.notifier.watch(self.service, self.server)
        self.service.load()

    def table(self, pace: Pace = TURN) -> tuple[str, list[Member]]:
        return new_table(self.service, pace)

    def move(self, code: str, members: list[Member]) -> None:
        """The player to move makes their first legal move, and leaves the table."""
        table = self.service.tables[code]
        assert table.game is not None
        seat = table.to_move()
        assert seat is not None
        mover = members[seat]
        if mover.table is None:
            self.service.join(mover, code)
        self.service.act(mover, table.game.legal_actions()[0].model_dump(mode="json"))

    def move_until_told(self, code: str, members: list[Member], out: Path, more: int) -> None:
        """Moves until ``more`` notifications more have been delivered (a turn may be
        several actions of one player, told once)."""
        want = len(delivered(out)) + more
        for _ in range(40):
            self.move(code, members)
            assert self.notifier.drain(30)
            if len(delivered(out)) >= want:
                return
        raise AssertionError("no new turn in 40 moves")

    def stop(self) -> None:
        self.notifier.close()
        self.service.close()


def delivered(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_each_turn_is_told_once_across_restarts(tmp_path: Path) -> None:
    out = tmp_path / "delivered.jsonl"
    clock = ManualClock()
    host = Host(tmp_path, f"cat >> '{out}'", clock)
    code, members = host.table()
    for m in members:  # everyone away from the table
        host.service.leave(m)
    host.move_until_told(code, members, out, 3)
    told = delivered(out)
    table = host.service.tables[code]
    assert told and all(d["kind"] == "your_move" and d["table"] == code for d in told)
    assert len({d["id"] for d in told}) == len(told)
    last = told[-1]
    assert last["player"] == table.seats[table.to_move() or 0].name
    assert last["game"] == "Paris Connection" and last["to"] is None
    assert last["text"].startswith(f"Your move at {code} (Paris Connection): ")
    assert "'s turn" not in last["text"]  # what the move did, not what followed from it
    assert last["join"] == f"ssh -p 2222 {last['player']}@games.example, then table {code}"
    host.stop()

    # Restarted twice: the move awaited is said again each time, and told to nobody again.
    for _ in range(2):
        host = Host(tmp_path, f"cat >> '{out}'", clock)
        assert host.notifier.drain(30)
        assert delivered(out) == told
        host.stop()
    host = Host(tmp_path, f"cat >> '{out}'", clock)
    members = [person(n) for n in NAMES]
    host.move_until_told(code, members, out, 1)
    now = delivered(out)
    assert now[:-1] == told and now[-1]["id"] not in {d["id"] for d in told}
    host.stop()


def test_an_event_accepted_but_not_done_is_sent_after_a_restart(tmp_path: Path) -> None:
    out = tmp_path / "delivered.jsonl"
    clock = ManualClock()
    host = Host(tmp_path, "exit 1", clock, retry_pauses=(600.0,))
    code, members = host.table()
    for m in members:
        host.service.leave(m)
    host.move(code, members)
    lines: list[dict[str, Any]] = []
    for _ in range(200):  # the first try failed; the host stops during the pause
        lines = delivered(tmp_path / "host" / "outbox" / OUTBOX)
        if any("accepted" in line for line in lines):
            break
        host.notifier._stop.wait(0.05)
    host.stop()
    pending = [line["accepted"]["id"] for line in lines if "accepted" in line]
    assert pending and not any("done" in line for line in lines)

    host = Host(tmp_path, f"cat >> '{out}'", clock)
    assert host.notifier.drain(30)
    assert [d["id"] for d in delivered(out)] == pending
    host.stop()


def test_events_still_waiting_as_the_host_stops_are_sent_at_its_next_start(
        tmp_path: Path) -> None:
    out = tmp_path / "delivered.jsonl"
    started = tmp_path / "started"
    clock = ManualClock()
    host = Host(tmp_path, f"touch '{started}'; sleep 1; cat >> '{out}'", clock, timeout=30)
    host.notifier.present = lambda name, table: True  # the game begins before them
    code, _ = host.table()
    host.notifier.present = lambda name, table: False
    table = host.service.tables[code]
    host.notifier.heard("timeout", table, {"seat": 0, "played": 1, "did": "remind"})
    for _ in range(600):  # its command runs; two more events wait behind it
        if started.exists():
            break
        host.notifier._stop.wait(0.05)
    host.notifier.heard("timeout", table, {"seat": 1, "played": 2, "did": "remind"})
    host.notifier.heard("timeout", table, {"seat": 2, "played": 3, "did": "remind"})
    host.notifier.close(0.01)
    assert host.notifier._thread is not None
    host.notifier._thread.join(30)
    host.service.close()
    assert [d["player"] for d in delivered(out)] == ["ann"]

    host = Host(tmp_path, f"cat >> '{out}'", clock)
    assert host.notifier.drain(30)
    assert [d["player"] for d in delivered(out)] == ["ann", "bob", "cy"]
    host.stop()


def test_a_game_found_over_by_a_restarted_host_is_not_told(tmp_path: Path) -> None:
    out = tmp_path / "delivered.jsonl"
    host = Host(tmp_path, f"cat >> '{out}'", ManualClock())
    host.notifier.present = lambda name, table: True
    code, _ = host.table()
    host.notifier.present = lambda name, table: False
    host.notifier.heard("over", host.service.tables[code], {"played": 9, "restored": True})
    assert host.notifier.drain(30)
    assert delivered(out) == []
    host.stop()


def test_muted_tables_tell_nothing_and_present_players_are_not_told(tmp_path: Path) -> None:
    out = tmp_path / "delivered.jsonl"
    clock = ManualClock()
    host = Host(tmp_path, f"cat >> '{out}'", clock)
    code, members = host.table()
    for m in members:
        host.service.leave(m)
    turns: list[int] = []
    host.service.listen(lambda kind, table, info: turns.append(1) if kind == "turn" else None)
    assert host.notifier.drain(30)
    before = delivered(out)  # the first move, told as the game began
    for name in NAMES:
        host.server.profiles.update(name, lambda p: p.muted.append(code))
    for _ in range(20):
        host.move(code, members)
    assert host.notifier.drain(30)
    assert len(turns) >= 2 and delivered(out) == before

    # Unmuted, but sitting at the (turn-based) table: they see it there, and are not told.
    for name in NAMES:
        host.server.profiles.update(name, lambda p: p.muted.clear())
    for m in members:
        if m.table is None:
            host.service.join(m, code)
        host.server.connections[m] = None  # type: ignore[assignment]
    turns.clear()
    for _ in range(20):
        host.move(code, members)
    assert host.notifier.drain(30)
    assert len(turns) >= 2 and delivered(out) == before
    host.stop()


def test_a_game_over_is_told_to_every_person_seated(tmp_path: Path) -> None:
    out = tmp_path / "delivered.jsonl"
    host = Host(tmp_path, f"cat >> '{out}'", ManualClock())
    code, _ = host.table()
    table = host.service.tables[code]
    host.notifier.heard("over", table, {"played": 9, "restored": False})
    host.notifier.heard("over", table, {"played": 9, "restored": True})  # once only
    host.notifier.heard("timeout", table, {"seat": 1, "played": 9, "did": "remind"})
    host.notifier.heard("timeout", table, {"seat": 1, "played": 9, "did": "bot"})
    host.notifier.heard("invited", table, {"names": ["bob", "dee", 7], "by": "ann"})
    assert host.notifier.drain(30)
    told = [(d["kind"], d["player"]) for d in delivered(out) if d["kind"] != "your_move"]
    assert sorted(told) == sorted([("over", "ann"), ("over", "bob"), ("over", "cy"),
                                   ("reminder", "bob"), ("invited", "bob"), ("invited", "dee")])
    host.stop()


@pytest.mark.parametrize("command, reason", [
    ("echo broken >&2; exit 3", "exit status 3"),
    ("no-such-notify-command-here", "command not found"),
    ("sleep 60", "killed"),
])
def test_a_failing_command_is_tried_a_few_times_then_given_up(
        tmp_path: Path, command: str, reason: str) -> None:
    clock = ManualClock()
    with LogLines() as log:
        host = Host(tmp_path, command, clock, timeout=0.3, retry_pauses=(0.0, 0.0))
        host.notifier.present = lambda name, table: True  # the game begins before them
        code, _ = host.table()
        host.notifier.present = lambda name, table: False
        table = host.service.tables[code]
        host.notifier.heard("timeout", table, {"seat": 1, "played": 3, "did": "remind"})
        assert host.notifier.drain(30)
        host.stop()
    failed = log.kind("notify_failed")
    assert [line["attempt"] for line in failed] == [1, 2, 3]
    assert all(reason in line["reason"] and line["id"] == f"{code}/3/remind/bob"
               for line in failed)
    if "broken" in command:
        assert failed[0]["output"] == "broken"
    [gave_up] = log.kind("notify_given_up")
    assert gave_up["id"] == f"{code}/3/remind/bob"
    outbox = delivered(tmp_path / "host" / "outbox" / OUTBOX)
    assert [line["outcome"] for line in outbox if "/remind/" in line.get("done", "")] == [
        "given_up"]


def test_a_command_that_hangs_never_holds_up_the_loop(tmp_path: Path) -> None:
    started = tmp_path / "started"

    async def play() -> None:
        host = Host(tmp_path, f"touch '{started}'; sleep 60", ManualClock(), timeout=20)
        code, _ = host.table()
        host.notifier.heard("over", host.service.tables[code], {"played": 3})
        ticks = 0
        while not started.exists():
            await asyncio.sleep(0.02)
        for _ in range(10):  # the command sleeps; the loop goes on
            await asyncio.sleep(0.02)
            ticks += 1
        assert ticks == 10 and host.notifier._busy > 0
        await asyncio.to_thread(host.notifier.close, 0.1)  # a command under way is left
        host.service.close()

    asyncio.run(asyncio.wait_for(play(), 60))


def test_a_flood_of_events_is_bounded(tmp_path: Path) -> None:
    with LogLines() as log:
        host = Host(tmp_path, "sleep 60", ManualClock(), queue_size=5, timeout=20)
        code, _ = host.table()
        table = host.service.tables[code]
        for n in range(40):
            host.notifier.heard("over", table, {"played": n})
        assert host.notifier._queue.qsize() <= 5
        host.notifier.close(0.1)
        host.service.close()
    # At most the queue's 5 and one batch the worker took from it (5 again) are held.
    assert len(log.kind("notify_dropped")) >= 40 * 3 - 2 * 5


def test_a_damaged_outbox_is_set_aside_and_what_it_said_is_kept(tmp_path: Path) -> None:
    folder = tmp_path / "host" / "outbox"
    folder.mkdir(parents=True)
    good = json.dumps({"done": "ABCD/3/turn/ann", "outcome": "delivered"})
    (folder / OUTBOX).write_text(f"{good}\n{{not json\n[1, 2]\n" + '{"done": 5}\n')
    with LogLines() as log:
        notifier = Notifier("true", folder)
    [line] = log.kind("outbox_unreadable")
    assert "line 2" in line["reason"]
    assert (folder / f"{OUTBOX}.unreadable").exists()
    assert notifier.known == {"ABCD/3/turn/ann"}
    # the outbox is one that reads again without complaint
    with LogLines() as log:
        again = Notifier("true", folder)
    assert not log.kind("outbox_unreadable") and again.known == {"ABCD/3/turn/ann"}

    # A last line cut short by a killed write is only left out.
    (folder / OUTBOX).write_text(f"{good}\n" + '{"done": "ABCD/4/tu')
    with LogLines() as log:
        torn = Notifier("true", folder)
    assert log.kind("outbox_torn") and not log.kind("outbox_unreadable")
    assert torn.known == {"ABCD/3/turn/ann"}

    (folder / OUTBOX).write_bytes(b"\xff\xfe\x00garbage")
    with LogLines() as log:
        Notifier("true", folder)
    assert log.kind("outbox_unreadable")


# ---------------------------------------------------------------- the player's settings
def ask(server: TableServer, who: Member, request: dict[str, Any]) -> dict[str, Any]:
    return asyncio.run(ops.call(server, who, request))


def test_settings_set_an_address_and_mute_and_silence_a_table(tmp_path: Path) -> None:
    host = Host(tmp_path, "true", ManualClock())
    code, members = host.table()
    ann = members[0]
    answer = ask(host.server, ann, {"op": "settings"})
    assert answer == {"ok": True, "notify_to": None, "muted": [], "quiet": [], "tables": [
        {"code": code, "title": "Paris Connection", "status": "playing",
         "pace": TURN.describe(), "muted": False, "bell": True}]}
    assert ask(host.server, ann, {"op": "set_address", "to": "  ann@example.org "}) == {
        "ok": True, "notify_to": "ann@example.org"}
    assert ask(host.server, ann, {"op": "mute", "code": code.lower(), "on": True})["muted"] == [code]
    assert ask(host.server, ann, {"op": "bell", "code": code, "on": False})["quiet"] == [code]
    again = Profiles(tmp_path / "host" / "profiles").get("ann")  # kept on disk
    assert (again.notify_to, again.muted, again.quiet) == ("ann@example.org", [code], [code])
    assert ask(host.server, ann, {"op": "mute", "code": code, "on": False})["muted"] == []
    assert ask(host.server, ann, {"op": "bell", "code": code, "on": True})["quiet"] == []
    assert ask(host.server, ann, {"op": "set_address", "to": ""})["notify_to"] is None
    host.stop()


@pytest.mark.parametrize("request_", [
    {"op": "set_address", "to": "x" * 100_000},
    {"op": "set_address", "to": "ann@example.org\n\x1b[2J"},
    {"op": "set_address", "to": "ann\x07@example.org"},
    {"op": "set_address", "to": "-oProxyCommand=evil"},
    {"op": "set_address", "to": 5},
    {"op": "set_address", "to": ["ann@example.org"]},
    {"op": "set_address", "to": {"a": {"b": {"c": []}}}},
    {"op": "mute", "code": "ZZZZ", "on": True},
    {"op": "mute", "code": "ZZZZZZZZ" * 1000, "on": True},
    {"op": "mute", "code": "AB\nC", "on": True},
    {"op": "mute", "code": 1234, "on": True},
    {"op": "mute", "code": None, "on": True},
    {"op": "mute", "code": "TABLE", "on": "yes"},
    {"op": "mute", "on": True},
    {"op": "bell", "code": "ÄÖÜß", "on": False},
    {"op": "bell", "code": ["ABCD"], "on": False},
    {"op": "bell", "code": "THIS", "on": 1},
])
def test_hostile_settings_are_refused_in_one_line(tmp_path: Path,
                                                  request_: dict[str, Any]) -> None:
    host = Host(tmp_path, "true", ManualClock())
    code, members = host.table()
    request = {k: (code if v == "THIS" else v) for k, v in request_.items()}
    ann = members[0]
    ask(host.server, ann, {"op": "set_address", "to": "ann@example.org"})
    before = host.server.profiles.get("ann")
    answer = ask(host.server, ann, request)
    assert answer["ok"] is False
    reason = answer["reason"]
    assert "\n" not in reason and len(reason) < 200 and "host could not" not in reason
    assert host.server.profiles.get("ann") == before
    assert Profiles(tmp_path / "host" / "profiles").get("ann") == before  # still readable
    host.stop()


def test_a_table_of_others_cannot_be_muted(tmp_path: Path) -> None:
    host = Host(tmp_path, "true", ManualClock())
    code, _ = host.table()
    dee = person("dee")
    answer = ask(host.server, dee, {"op": "mute", "code": code, "on": True})
    assert answer == {"ok": False, "reason": f"you have no table '{code}' on this host"}
    host.stop()


# ---------------------------------------------------------------- the README's example
def fake_mail(tmp_path: Path) -> tuple[dict[str, str], Path]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "mail.log"
    mail = bin_dir / "mail"
    mail.write_text("#!/bin/sh\n{ printf 'ARGS'; printf ' <%s>' \"$@\"; echo; cat; "
                    f"echo END; }} >> '{log}'\n")
    mail.chmod(0o755)
    python = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}:{python}:{os.environ.get('PATH', '')}"}
    return env, log


def test_the_readme_mail_example_sends_one_mail(tmp_path: Path) -> None:
    env, log = fake_mail(tmp_path)
    script = DOCS / "notify-mail.sh"
    assert f"--notify-command 'sh {script.relative_to(DOCS.parent)}'" in (
        DOCS.parent / "README.md").read_text()
    doc = {"id": "RFXP/4/turn/bo", "player": "Bo", "to": "bo@example.org", "table": "RFXP",
           "game": "Railways of the World", "kind": "your_move",
           "text": "Your move at RFXP (Railways of the World): Cy delivered a red cube.",
           "join": "ssh -p 2222 Bo@games.example, then table RFXP", "at": "2026-01-01T09:00:00+00:00"}
    run = subprocess.run(["sh", str(script)], input=json.dumps(doc), env=env, text=True,
                         capture_output=True, timeout=60)
    assert run.returncode == 0, run.stderr
    text = log.read_text()
    assert text.startswith("ARGS <-s> <railgames: Your move at RFXP (Railways of the World): "
                           "Cy delivered a red cube.> <--> <bo@example.org>\n")
    assert doc["text"] in text and "ssh -p 2222 Bo@games.example, then table RFXP" in text
    assert text.count("END") == 1

    # No address, or one that is not an e-mail address: no mail, and no failure.
    for to in (None, "-oQ=x@y", "@bo on the chat"):
        run = subprocess.run(["sh", str(script)], input=json.dumps({**doc, "to": to}),
                             env=env, text=True, capture_output=True, timeout=60)
        assert run.returncode == 0, run.stderr
    assert log.read_text().count("END") == 1


# ---------------------------------------------------------------- the host, from its command line
def test_the_host_tells_the_move_its_tables_await_and_starts_past_a_damaged_outbox(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from railgames.cli import main
    from railgames.net import sshhost

    data = tmp_path / "data"
    service = TableService(data / "tables", bot_delay=0, bot_workers=0)
    code, members = new_table(service)
    for m in members:
        service.leave(m)
    table = service.tables[code]
    waiting_for = table.seats[table.to_move() or 0].name
    service.close()
    outbox = data / "host" / "outbox"
    outbox.mkdir(parents=True)
    (outbox / OUTBOX).write_text("{damaged\n{}\n")
    out = tmp_path / "delivered.jsonl"
    configs: list[sshhost.HostConfig] = []
    notifiers: list[Notifier | None] = []

    async def serve(config: sshhost.HostConfig) -> None:  # the host started and stopped
        configs.append(config)
        host = sshhost.Host(config)
        await host.start()
        notifiers.append(host.notifier)
        try:
            if host.notifier is not None:
                assert await asyncio.to_thread(host.notifier.drain, 30)
        finally:
            await host.close()

    monkeypatch.setattr(sshhost, "serve_forever", serve)
    monkeypatch.setattr(sshhost, "setup_logging", lambda: None)
    with LogLines() as log:
        assert main(["host", "--port", "0", "--data-dir", str(data), "--password", "pw",
                     "--notify-command", f"cat >> '{out}'"]) == 0
    [config] = configs
    assert config.notify_command == f"cat >> '{out}'" and config.notify_join is None
    assert log.kind("outbox_unreadable") and (outbox / f"{OUTBOX}.unreadable").exists()
    [told] = delivered(out)
    assert (told["kind"], told["player"], told["table"]) == ("your_move", waiting_for, code)
    assert told["join"].startswith("ssh -p ") and told["join"].endswith(f", then table {code}")
    assert f"{waiting_for}@127.0.0.1" in told["join"]

    # Without the option nothing is run.
    configs.clear()
    assert main(["host", "--port", "0", "--data-dir", str(data), "--password", "pw"]) == 0
    assert configs[0].notify_command is None and notifiers[-1] is None


def test_a_long_outbox_is_written_again_shorter(tmp_path: Path) -> None:
    folder = tmp_path / "outbox"
    folder.mkdir()
    doc = {"player": "ann", "to": None, "table": "ABCD", "game": "Paris Connection",
           "kind": "your_move", "text": "Your move.", "join": "", "at": "2026-01-01T00:00:00"}
    lines = []
    for n in range(1500):
        lines.append(json.dumps({"accepted": {**doc, "id": f"ABCD/{n}/turn/ann"}}))
        lines.append(json.dumps({"done": f"ABCD/{n}/turn/ann", "outcome": "delivered"}))
    lines.append(json.dumps({"accepted": {**doc, "id": "ABCD/1500/turn/ann"}}))
    (folder / OUTBOX).write_text("\n".join(lines) + "\n")
    notifier = Notifier("true", folder)
    kept = (folder / OUTBOX).read_text().splitlines()
    assert len(kept) == 1501 and len(notifier.known) == 1501
    assert [n.id for n in notifier._pending] == ["ABCD/1500/turn/ann"]
    assert Notifier("true", folder).known == notifier.known


def test_a_week_of_turns_with_a_restart_after_every_move_tells_each_turn_once(
        tmp_path: Path) -> None:
    """Three players away from a turn-based table, a move every few hours for a week, the
    host restarted between moves: one notification per turn, to the player whose it is."""
    out = tmp_path / "delivered.jsonl"
    clock = ManualClock()
    turns: list[tuple[int, str]] = []  # (actions played, player) of each turn as it came

    def heard(kind: str, table: Any, info: dict[str, Any]) -> None:
        if kind == "turn" and not info["restored"] and info["person"]:
            turns.append((info["played"], table.seats[info["seat"]].name))

    host = Host(tmp_path, f"cat >> '{out}'", clock)
    host.service.listen(heard)
    code, members = host.table()
    for m in members:
        host.service.leave(m)
    start = clock.now()
    while clock.now() - start < 7 * 24 * 3600:
        clock.advance(5 * 3600)
        host.move(code, [person(n) for n in NAMES])
        assert host.notifier.drain(30)
        host.stop()
        host = Host(tmp_path, f"cat >> '{out}'", clock)
        host.service.listen(heard)
    assert host.notifier.drain(30)
    host.stop()
    told = delivered(out)
    assert len(turns) >= 4
    assert [(d["player"]) for d in told] == [name for _, name in turns]
    assert len({d["id"] for d in told}) == len(told)
    assert told[-1]["at"] > told[0]["at"]  # the host's clock, a week on


def test_a_player_sitting_at_the_table_at_another_host_is_not_told() -> None:
    """Hosts sharing a database: a player whose seat is taken at another host sees the
    table there, so this host tells them nothing (and one away from it is told)."""
    from types import SimpleNamespace

    from railgames.net.notify import _present
    from railgames.net.tables import HostTable, Seat

    table = HostTable(code="ABCD", game_id="new-england", humans=2,
                      seats=[Seat(name="ann"), Seat(name="bob")],
                      pace=TURN)
    server: Any = SimpleNamespace(members_of=lambda name: [])
    assert not _present(server, "bob", table)
    table.elsewhere = {1}
    assert _present(server, "bob", table) and not _present(server, "ann", table)
