"""``railgames host`` driven by real SSH clients on a free loopback port.

asyncssh's client plays through PTYs read with a screen emulator; the system
``ssh`` (OpenSSH) is used where it is installed. Every wait has a time limit.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from host_terminal import HostProcess, Terminal, client_key, kept_record, until

from railgames.core.engine import Game
from railgames.games import load_ruleset

PASSWORD = "table-pw"
LIMIT = 240  # seconds any one test may take


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), LIMIT))


@pytest.fixture
def host(tmp_path: Path) -> Iterator[HostProcess]:
    process = HostProcess(tmp_path / "data").start()
    yield process
    process.kill()


def table_game(data_dir: Path, code: str) -> Game:
    """The table as saved on the host, replayed."""
    record = kept_record(data_dir, code)
    return Game.replay(load_ruleset(record.game, record.map), record)




async def open_paris_table(port: int) -> tuple[str, Terminal, Terminal]:
    """Ann hosts a Paris Connection table (Ann, Bob and a bot); Bob joins with its code."""
    ann = await Terminal().open(port, "ann", PASSWORD)
    await ann.wait_for("Host a table")
    ann.press("g")  # from the player's tables to the games' list
    await ann.wait_for("Watch a demo")
    ann.press("down")  # Paris Connection, second in the list
    await ann.wait_for("Paris Connection\\s+│.*\n.*3–5 players|Paris Connection", 10)
    ann.press("h")
    await ann.wait_for("Open the table")
    await ann.wait_for("Game\\s+Paris Connection")
    ann.press("enter")
    code = (await ann.wait_for(r"Table ([A-Z]{4})")).group(1)
    bob = await Terminal().open(port, "bob", PASSWORD)
    await bob.wait_for("Join a table")
    bob.press("j")
    await bob.wait_for("Code")
    bob.press(code.lower(), "enter")
    for term in (ann, bob):
        await term.wait_for("Paris Connection · turn")
    return code, ann, bob


async def holdings_line(term: Terminal) -> str:
    """The locomotives behind this player's screen, as the players' panel shows them.

    (Their worth moves with the game, so it is left out.)
    """
    return (await term.wait_for(r"Yours: (.*?)\s+worth")).group(1).strip()


async def play_one_build(data_dir: Path, code: str, terms: dict[int, Terminal]) -> int:
    """The human to move builds one locomotive and ends the build; returns the action count."""
    game = table_game(data_dir, code)
    await until(lambda: table_game(data_dir, code).prompt().seat in terms, "a human to move")
    game = table_game(data_dir, code)
    seat = game.prompt().seat
    before = len(game.record.actions)
    mover = terms[seat]
    await mover.wait_for("Build or trade\\?")
    mover.press("enter")  # the first company offered
    await mover.wait_for("where\\?")
    mover.press("enter")  # the hex under the cursor, one of the choices
    await mover.wait_for("placed: next hex, or end")
    mover.press("e")
    await until(lambda: len(table_game(data_dir, code).record.actions) >= before + 2,
                "the build to reach the host")
    return before + 2


def test_two_players_share_a_table_and_see_only_their_own_holdings(host: HostProcess) -> None:
    async def scenario() -> None:
        code, ann, bob = await open_paris_table(host.port)
        try:
            game = table_game(host.data_dir, code)
            ruleset = game.ruleset
            held = [ruleset.holding_text(p.shares) for p in game.state.players]
            # Each sees the deal of their own seat, never the other's.
            await ann.wait_for("ann is dealt")
            await bob.wait_for("bob is dealt")
            assert "bob is dealt" not in ann.text() and "ann is dealt" not in bob.text()
            assert held[0] not in bob.text() and held[1] not in ann.text()
            mine_ann, mine_bob = await holdings_line(ann), await holdings_line(bob)
            for _ in range(2):
                count = await play_one_build(host.data_dir, code, {0: ann, 1: bob})
                game = table_game(host.data_dir, code)
                last = [e.text for e in game.log if e.kind == "build"][-1]
                # The move shows on both terminals.
                for term in (ann, bob):
                    await term.wait_for(last.split(" on ")[0])
                assert len(game.record.actions) >= count
            assert await holdings_line(ann) == mine_ann and await holdings_line(bob) == mine_bob
        finally:
            await ann.close()
            await bob.close()

    run(scenario)


def test_history_mid_game_shows_a_seat_only_what_it_may_see(host: HostProcess) -> None:
    async def scenario() -> None:
        code, ann, bob = await open_paris_table(host.port)
        try:
            count = await play_one_build(host.data_dir, code, {0: ann, 1: bob})
            game = table_game(host.data_dir, code)
            bobs = game.ruleset.holding_text(game.state.players[1].shares)
            # The build has reached Ann's screen: its line is in her log.
            built = [e.text for e in game.log if e.kind == "build"][-1]
            await ann.wait_for(re.escape(built.split(" on ")[0]))
            ann.press("v")
            banner = await ann.wait_for(r"History\s+turn \d+ · action (\d+)/(\d+)", 30)
            length = int(banner.group(2))
            assert int(banner.group(1)) == length >= count
            await ann.wait_for("Only what you may see")
            assert bobs not in ann.text()
            ann.press("left")
            await ann.wait_for(f"action {length - 1}/{length}")
            ann.press("home")
            await ann.wait_for(f"action 0/{length}")
            await ann.wait_for("ann is dealt")  # the set-up, as Ann saw it
            assert "bob is dealt" not in ann.text() and bobs not in ann.text()
            ann.press("escape")
            await ann.wait_for("Paris Connection · turn")
            # The game goes on from where it was: nothing in the history changed it.
            assert table_game(host.data_dir, code).record.actions[:count] == \
                game.record.actions[:count]
            # Undo at a host's table: taken back or refused with a reason, the session goes on.
            ann.press("u")
            await ann.wait_for("Your last move was taken back|Not allowed", 30)
            ann.press("v")
            await ann.wait_for("History", 30)
            assert '"session_ended"' not in host.log_lines()
        finally:
            await ann.close()
            await bob.close()

    run(scenario)


def test_a_killed_client_comes_back_to_its_seat(host: HostProcess) -> None:
    async def scenario() -> None:
        code, ann, bob = await open_paris_table(host.port)
        try:
            await play_one_build(host.data_dir, code, {0: ann, 1: bob})
            mine = await holdings_line(bob)
            before = table_game(host.data_dir, code).record.actions
            bob.abort()  # no goodbye, as when a laptop lid closes
            await ann.wait_for(r"bob \(away\)|B\s+bob", 30)
            bob = await Terminal().open(host.port, "bob", PASSWORD)
            await bob.wait_for("Join a table")
            bob.press("j")
            await bob.wait_for("Code")
            bob.press(code, "enter")
            await bob.wait_for("Paris Connection · turn")
            assert await holdings_line(bob) == mine
            assert table_game(host.data_dir, code).record.actions[:len(before)] == before
            # A second login as Ann, while Ann plays, cannot take her seat.
            ann2 = await Terminal().open(host.port, "ann", PASSWORD)
            ann2.press("j")
            await ann2.wait_for("Code")
            ann2.press(code, "enter")
            await ann2.wait_for("already playing at this table")
            await ann2.close()
        finally:
            await ann.close()
            await bob.close()

    run(scenario)


def test_a_restarted_host_resumes_the_table(tmp_path: Path) -> None:
    data = tmp_path / "data"
    host = HostProcess(data).start()

    async def first() -> tuple[str, str]:
        code, ann, bob = await open_paris_table(host.port)
        try:
            await play_one_build(data, code, {0: ann, 1: bob})
            return code, await holdings_line(ann)
        finally:
            ann.abort()
            bob.abort()

    async def second(code: str, mine: str, actions: list[dict[str, Any]]) -> None:
        ann = await Terminal().open(again.port, "ann", PASSWORD)
        try:
            ann.press("j")
            await ann.wait_for("Code")
            ann.press(code, "enter")
            await ann.wait_for("Paris Connection · turn")
            assert await holdings_line(ann) == mine
            # Nothing lost; the bots may have gone on with their turn since the restart.
            assert table_game(data, code).record.actions[:len(actions)] == actions
        finally:
            await ann.close()

    try:
        code, mine = asyncio.run(asyncio.wait_for(first(), LIMIT))
        actions = table_game(data, code).record.actions
        host.kill()  # SIGKILL: no chance to save anything more
        again = HostProcess(data).start()
        try:
            assert "kept" in again.greeting  # the same host key
            asyncio.run(asyncio.wait_for(second(code, mine, actions), LIMIT))
            assert '"event": "table_restored"' in again.log_lines()
        finally:
            again.kill()
    finally:
        host.kill()


def test_wrong_password_is_refused(host: HostProcess) -> None:
    async def scenario() -> None:
        with pytest.raises(asyncssh.PermissionDenied):
            await asyncssh.connect("127.0.0.1", host.port, username="ann", password="nope",
                                   known_hosts=None, client_keys=None, agent_path=None)

    run(scenario)
    assert '"event": "login_failed"' in host.log_lines()


def test_commands_subsystems_and_forwarding_are_refused(host: HostProcess) -> None:
    async def scenario() -> None:
        async with asyncssh.connect("127.0.0.1", host.port, username="ann", password=PASSWORD,
                                    known_hosts=None, client_keys=None, agent_path=None) as conn:
            result = await conn.run("cat /etc/passwd", timeout=30)
            assert result.exit_status == 1
            assert "runs no commands" in str(result.stderr)
            assert "root:" not in str(result.stdout)
            shell = await conn.run(timeout=30)  # a shell without a PTY
            assert shell.exit_status == 1 and "interactive terminal" in str(shell.stderr)
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.open_connection("127.0.0.1", 22)
            with pytest.raises(asyncssh.ChannelListenError):
                await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22)
            with pytest.raises(asyncssh.ChannelOpenError):  # the sftp subsystem
                await asyncio.wait_for(conn.start_sftp_client(), 30)
            with pytest.raises(asyncssh.ChannelOpenError, match="X11"):
                await conn.create_process(term_type="xterm", x11_forwarding=True,
                                          x11_display="127.0.0.1:0")

    run(scenario)
    log = host.log_lines()
    for reason in ('"reason": "exec"', '"reason": "port forwarding"', '"reason": "no pty"',
                   '"reason": "subsystem"'):
        assert reason in log


def test_a_bad_name_and_too_many_sessions_get_one_clear_line(tmp_path: Path) -> None:
    host = HostProcess(tmp_path / "data", "--per-ip", "1").start()

    async def scenario() -> None:
        with pytest.raises(asyncssh.DisconnectError, match="cannot be a player's name"):
            await asyncssh.connect("127.0.0.1", host.port, username="a b", password=PASSWORD,
                                   known_hosts=None, client_keys=None, agent_path=None)
        first = await Terminal().open(host.port, "ann", PASSWORD)
        try:
            with pytest.raises(asyncssh.DisconnectError, match="too many sessions from"):
                await asyncssh.connect("127.0.0.1", host.port, username="bob", password=PASSWORD,
                                       known_hosts=None, client_keys=None, agent_path=None)
        finally:
            await first.close()

    try:
        run(scenario)
        assert '"event": "refused"' in host.log_lines()
    finally:
        host.kill()


def test_idle_and_login_timeouts_close_the_session_with_one_line(tmp_path: Path) -> None:
    host = HostProcess(tmp_path / "data", "--idle-timeout", "2", "--login-timeout", "2").start()

    async def scenario() -> None:
        # Connected but never logging in: the host hangs up by itself.
        reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
        banner = await asyncio.wait_for(reader.readline(), 30)
        assert banner.startswith(b"SSH-2.0-")
        rest = await asyncio.wait_for(reader.read(), 30)  # EOF once the login time is up
        assert isinstance(rest, bytes)
        writer.close()
        # Logged in, then no key pressed: one line, and the session ends.
        term = await Terminal().open(host.port, "ann", PASSWORD, exactly=True)
        try:
            await term.wait_for("no key pressed for 2 seconds", 60)
            assert term.proc is not None
            await asyncio.wait_for(term.proc.wait_closed(), 30)
        finally:
            await term.close()

    try:
        run(scenario)
        log = host.log_lines()
        assert '"event": "idle_timeout"' in log
    finally:
        host.kill()


SSH = shutil.which("ssh")


@pytest.mark.skipif(SSH is None, reason="the OpenSSH client is not installed "
                                        "(Debian: apt-get install openssh-client)")
def test_openssh_client_with_a_key_reaches_the_launcher(tmp_path: Path) -> None:
    key, key_file, authorized = client_key(tmp_path)
    host = HostProcess(tmp_path / "data", "--authorized-keys", str(authorized), password="").start()
    base = [str(SSH), "-p", str(host.port), "-i", str(key_file), "-o", "BatchMode=yes",
            "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
            "-o", "IdentitiesOnly=yes", "-o", "ConnectTimeout=20", "-F", "/dev/null"]
    env = {k: v for k, v in os.environ.items() if k != "SSH_AUTH_SOCK"}
    try:
        # A command is refused with one line, and nothing runs.
        done = subprocess.run([*base, "ann@127.0.0.1", "id"], capture_output=True, text=True,
                              timeout=60, stdin=subprocess.DEVNULL, env=env)
        assert done.returncode == 1 and "runs no commands" in done.stderr
        assert "uid=" not in done.stdout
        # Forwarding is refused too (the client asks for it and gives up).
        done = subprocess.run([*base, "-o", "ExitOnForwardFailure=yes", "-N",
                               "-L", "127.0.0.1:0:127.0.0.1:22", "ann@127.0.0.1"],
                              capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL, env=env)
        assert done.returncode != 0
        # No key, no entry.
        done = subprocess.run([str(SSH), "-p", str(host.port), "-o", "BatchMode=yes",
                               "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                               "-o", "IdentitiesOnly=yes", "-F", "/dev/null", "-o",
                               "IdentityFile=/dev/null", "ann@127.0.0.1"],
                              capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL, env=env)
        assert done.returncode == 255 and "Permission denied" in done.stderr
        # An interactive session (-tt gives it a PTY without one here) draws the launcher.
        proc = subprocess.Popen([*base, "-tt", "ann@127.0.0.1"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        try:
            import pyte

            screen = pyte.Screen(80, 24)
            stream = pyte.ByteStream(screen)
            seen = b""
            import time

            deadline = time.monotonic() + 60
            assert proc.stdout is not None
            os.set_blocking(proc.stdout.fileno(), False)
            while time.monotonic() < deadline and "Host a table" not in "\n".join(screen.display):
                try:
                    chunk = proc.stdout.read(65536)
                except BlockingIOError:
                    chunk = None
                if chunk:
                    seen += chunk
                    stream.feed(chunk)
                else:
                    time.sleep(0.1)
            assert "Host a table" in "\n".join(screen.display)
        finally:
            proc.kill()
            proc.wait(10)
    finally:
        host.kill()
    assert '"method": "publickey"' in host.log_lines()


def test_a_watcher_is_offered_only_what_a_watcher_can_do_and_sees_who_is_away(
        host: HostProcess) -> None:
    async def scenario() -> None:
        code, ann, bob = await open_paris_table(host.port)
        cat = await Terminal().open(host.port, "cat", PASSWORD)
        try:
            await cat.wait_for("Join a table")
            cat.press("j")
            await cat.wait_for("Code")
            cat.press(code, "enter")
            await cat.wait_for("Paris Connection · turn")
            footer = (await cat.wait_for(r".*History.*Quit.*")).group(0)
            for word in ("Undo", "Save", "Choose", "Pass", "End build"):
                assert word not in footer
            assert str(host.data_dir) not in cat.text()
            bob.abort()  # Bob's connection drops
            await cat.wait_for(r"bob \(away\)")
            await ann.wait_for(r"bob \(away\)")
        finally:
            await cat.close()
            await ann.close()

    run(scenario)


def test_a_player_who_logs_back_in_is_told_where_it_is_their_move(host: HostProcess) -> None:
    async def scenario() -> None:
        code, ann, bob = await open_paris_table(host.port)
        try:
            # The bot moves at once if it was dealt the first turn; then it is a person's.
            await until(lambda: table_game(host.data_dir, code).prompt().seat in (0, 1),
                        "a person to move")
            mover = table_game(host.data_dir, code).prompt().seat
            who = ["ann", "bob"][mover]
            [ann, bob][mover].abort()
            again = await Terminal().open(host.port, who, PASSWORD)
            try:
                await again.wait_for(f"Your move at {code}")
                again.press("enter")  # the first of their tables: where it is their move
                await again.wait_for("Paris Connection · turn")
            finally:
                await again.close()
        finally:
            await ann.close()
            await bob.close()

    run(scenario)


def test_a_player_on_the_host_is_never_shown_the_hosts_folders(host: HostProcess) -> None:
    async def scenario() -> None:
        ann = await Terminal().open(host.port, "ann", PASSWORD)
        try:
            await ann.wait_for("Host a table")
            ann.press("g")
            await ann.wait_for("Watch a demo")
            ann.press("c")
            await ann.wait_for("No saved games yet")
            assert "on the host, in a folder of your own" in " ".join(ann.text().split())
            assert str(host.data_dir) not in ann.text() and "/players/" not in ann.text()
        finally:
            await ann.close()

    run(scenario)


def test_paths_under_a_players_folder_are_shown_from_there(monkeypatch: pytest.MonkeyPatch,
                                                           tmp_path: Path) -> None:
    from railgames.app.saves import shown, where_saves_are

    home = tmp_path / "players" / "ann"
    monkeypatch.setenv("RAILGAMES_DATA_DIR", str(home))
    monkeypatch.delenv("RAILGAMES_TABLES", raising=False)
    assert shown(f"Saved to {home}/saves/g.json") == f"Saved to {home}/saves/g.json"
    monkeypatch.setenv("RAILGAMES_TABLES", "/somewhere/tables.sock")
    assert shown(f"Saved to {home}/saves/g.json") == "Saved to saves/g.json"
    assert str(tmp_path) not in where_saves_are()


def test_a_quick_tour_over_ssh_at_80x24_explains_its_first_rule(host: HostProcess) -> None:
    from railgames.core.rulebook import rulebook
    from railgames.core.tour import chosen_tour

    ruleset = load_ruleset("new-england")  # the first game of the launcher's list
    tour = chosen_tour(ruleset)
    first_rule = rulebook(ruleset)[tour.stops[0].rules[0]].title

    async def scenario() -> None:
        ann = await Terminal(80, 24).open(host.port, "ann", PASSWORD)
        try:
            await ann.wait_for("Host a table")
            ann.press("g")  # the games on this terminal
            await ann.wait_for("Quick tour")
            ann.press("t")
            await ann.wait_for("New England Railways · Quick tour", 60)
            ann.press(" ", "home")  # paused, at the first stop's start
            await ann.wait_for("paused")
            await ann.wait_for(f"NEW RULE: {first_rule}")
            await ann.wait_for("Stop 1 of")
            ann.press("n")
            await ann.wait_for("stop 2/")
            ann.press("d")  # the whole demo, from the tour
            await ann.wait_for("New England Railways · Demo", 60)
        finally:
            await ann.close()

    run(scenario)
