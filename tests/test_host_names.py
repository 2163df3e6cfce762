"""Names that belong to their players, on a real host over SSH: keys and passphrases claim
names, the failed-login limit, and the operator's admin commands.

asyncssh's client plays through PTYs read with a screen emulator; the system
``ssh`` (OpenSSH) is used where it is installed. Every wait has a time limit.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from host_terminal import HostProcess, Terminal, passphrase_for
from test_host_ssh import holdings_line

PASSWORD = "table-pw"
LIMIT = 240  # seconds any one test may take
SSH = shutil.which("ssh")


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), LIMIT))


async def connect(port: int, name: str, password: str | None = None, **kw: Any) -> Any:
    return await asyncssh.connect("127.0.0.1", port, username=name, password=password,
                                  known_hosts=None, agent_path=None,
                                  client_keys=kw.pop("client_keys", None), **kw)


def log_events(host: HostProcess, kind: str) -> list[dict[str, Any]]:
    """The host's log lines of one kind. (Only the JSON lines are read: that every line is
    JSON, even when a client drops its channel mid-write, is the hostile-client tests' part.)"""
    lines = [json.loads(line) for line in host.log_lines().splitlines() if line.startswith("{")]
    return [line for line in lines if line.get("event") == kind]


def register(data: Path) -> dict[str, Any]:
    return dict(json.loads((data / "host" / "players.json").read_text()))


def admin(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "railgames.cli", "host", "admin", *args,
                           "--data-dir", str(data)], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)


def make_key(tmp_path: Path, name: str) -> tuple[asyncssh.SSHKey, Path]:
    key = asyncssh.generate_private_key("ssh-ed25519", comment=name)
    path = tmp_path / f"id_{name}"
    path.write_bytes(key.export_private_key())
    path.chmod(0o600)
    return key, path


async def open_table(port: int, first: str, second: str) -> tuple[str, Terminal, Terminal]:
    """``first`` hosts a Paris Connection table (two people and a bot); ``second`` joins."""
    one = await Terminal().open(port, first, PASSWORD)
    await one.wait_for("Host a table")
    one.press("g")  # from the player's tables to the games' list
    await one.wait_for("Watch a demo")
    one.press("down")  # Paris Connection, second in the list
    await one.wait_for("Paris Connection", 10)
    one.press("h")
    await one.wait_for("Game\\s+Paris Connection")
    one.press("enter")
    code = (await one.wait_for(r"Table ([A-Z]{4})")).group(1)
    two = await Terminal().open(port, second, PASSWORD)
    await two.wait_for("Join a table")
    two.press("j")
    await two.wait_for("Code")
    two.press(code.lower(), "enter")
    for term in (one, two):
        await term.wait_for("Paris Connection · turn")
    return code, one, two


async def join(term: Terminal, code: str) -> None:
    await term.wait_for("Join a table")
    term.press("j")
    await term.wait_for("Code")
    term.press(code, "enter")
    await term.wait_for("Paris Connection · turn")


# ------------------------------------------------------------------ the cat scenario
def test_cat_away_her_name_seat_and_holdings_stay_hers(tmp_path: Path) -> None:
    """Cat sits at a Paris Connection table and leaves; someone else with the table
    password tries 'cat' and is refused; Cat comes back with her passphrase and sees
    her own holdings again."""
    host = HostProcess(tmp_path / "data").start()

    async def scenario() -> None:
        code, cat, ann = await open_table(host.port, "cat", "ann")
        try:
            mine = await holdings_line(cat)
            cat.abort()  # Cat goes away
            await ann.wait_for(r"cat \(away\)|C\s+cat", 30)
            # Eve knows the table password, and tries Cat's name.
            with pytest.raises(asyncssh.PermissionDenied):
                await connect(host.port, "cat", PASSWORD)
            with pytest.raises(asyncssh.PermissionDenied):
                await connect(host.port, "CAT", PASSWORD)
            # Cat comes back with her passphrase: her seat, her holdings.
            cat = await Terminal().open(host.port, "cat", passphrase_for("cat"), exactly=True)
            await join(cat, code)
            assert await holdings_line(cat) == mine
        finally:
            await cat.close()
            await ann.close()

    try:
        run(scenario)
        failed = log_events(host, "login_failed")
        assert [e["user"] for e in failed] == ["cat", "CAT"]
        assert all("wrong passphrase" in e["reason"] for e in failed)
    finally:
        host.kill()


# ------------------------------------------------------------------ passphrases
def test_a_new_name_chooses_its_passphrase_and_needs_it_from_then_on(tmp_path: Path) -> None:
    host = HostProcess(tmp_path / "data").start()
    mine = passphrase_for("cat")

    async def scenario() -> None:
        term = await Terminal().open(host.port, "cat", PASSWORD, exactly=True)
        try:
            await term.wait_for("Choose a passphrase for cat")
            assert "Host a table" not in term.text()  # nothing before the passphrase

            async def attempt(first: str, again: str, shown: str) -> None:
                for field, text, then in (("Choose it", first, "tab"),
                                          ("Again", again, "enter")):
                    await asyncio.sleep(1.0)
                    term.press(text)
                    await term.wait_for(field + r"\s*•")
                    term.press(then)
                await term.wait_for(shown)

            await attempt(mine, mine + "x", "The two passphrases differ")
            await attempt("short", "short", "at least 8 characters")
            await attempt(PASSWORD, PASSWORD, "must not be the table password")
            await attempt(mine, mine, "Host a table")
        finally:
            await term.close()
        # From now on the table password does not open 'cat'; the passphrase does.
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(host.port, "cat", PASSWORD)
        again = await Terminal().open(host.port, "cat", mine, exactly=True)
        try:
            await again.wait_for("You are cat")
            assert "Choose a passphrase" not in again.text()
        finally:
            await again.close()

    try:
        run(scenario)
        saved = register(host.data_dir)["players"]["cat"]
        assert saved["passphrase"].startswith("scrypt$") and mine not in json.dumps(saved)
        assert len(log_events(host, "name_claimed")) == 1
    finally:
        host.kill()


@pytest.mark.skipif(SSH is None or shutil.which("tmux") is None,
                    reason="the OpenSSH client or tmux is not installed")
def test_openssh_chooses_a_passphrase_and_logs_in_with_it(tmp_path: Path) -> None:
    from host_terminal import OpenSshTerminal

    host = HostProcess(tmp_path / "data").start()

    async def scenario() -> None:
        first = await OpenSshTerminal(prefix=f"rg-names-{os.getpid()}").open(
            host.port, "cat", PASSWORD)  # chooses the passphrase on the first screen
        await first.close()
        assert "passphrase" in register(host.data_dir)["players"]["cat"]
        again = await OpenSshTerminal(prefix=f"rg-names-{os.getpid()}").open(
            host.port, "cat", passphrase_for("cat"), exactly=True)
        try:
            await again.wait_for("You are cat")
        finally:
            await again.close()

    try:
        run(scenario)
        # The table password for 'cat' now: refused, with one line saying why (ssh shows
        # the host's banner at its usual log level). The password is typed by an askpass
        # program, as a person would type it at the prompt.
        askpass = tmp_path / "askpass"
        askpass.write_text(f"#!/bin/sh\necho '{PASSWORD}'\n")
        askpass.chmod(0o700)
        env = {**{k: v for k, v in os.environ.items() if k != "SSH_AUTH_SOCK"},
               "SSH_ASKPASS": str(askpass), "SSH_ASKPASS_REQUIRE": "force", "DISPLAY": ":0"}
        assert SSH is not None
        done = subprocess.run(
            [SSH, "-p", str(host.port), "-o", "StrictHostKeyChecking=no", "-o",
             "UserKnownHostsFile=/dev/null", "-o", "PubkeyAuthentication=no", "-o",
             "NumberOfPasswordPrompts=1", "-F", "/dev/null", "-T", "cat@127.0.0.1"],
            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, env=env)
        assert done.returncode == 255, done.stderr
        assert "railgames: wrong passphrase for cat" in done.stderr
        assert "Permission denied" in done.stderr
    finally:
        host.kill()


# ------------------------------------------------------------------ keys
def test_the_first_key_claims_a_name_and_another_key_is_refused(tmp_path: Path) -> None:
    key_a, path_a = make_key(tmp_path, "a")
    key_b, path_b = make_key(tmp_path, "b")
    authorized = tmp_path / "authorized_keys"
    authorized.write_bytes(key_a.export_public_key() + key_b.export_public_key())
    host = HostProcess(tmp_path / "data", "--authorized-keys", str(authorized),
                       password="").start()
    print_a = key_a.get_fingerprint("sha256")

    async def scenario() -> None:
        ann = await Terminal().open(host.port, "ann", client_keys=[key_a])
        await ann.wait_for("You are ann")
        await ann.close()
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(host.port, "ann", client_keys=[key_b])
        # Both keys offered, the other player's first: the right one still gets in.
        both = await Terminal().open(host.port, "ann", client_keys=[key_b, key_a])
        await both.wait_for("You are ann")
        await both.close()
        bob = await Terminal().open(host.port, "bob", client_keys=[key_b])
        await bob.wait_for("You are bob")
        await bob.close()

    try:
        run(scenario)
        saved = register(host.data_dir)["players"]
        assert saved["ann"]["key"] == print_a and saved["bob"]["key"] == key_b.get_fingerprint(
            "sha256")
        refused = [e for e in log_events(host, "login_failed") if e["user"] == "ann"]
        assert refused and all("another player's key" in e["reason"] for e in refused)
        assert [e["user"] for e in log_events(host, "name_claimed")] == ["ann", "bob"]
        if SSH is not None:  # what a person with OpenSSH sees: one line saying why
            env = {k: v for k, v in os.environ.items() if k != "SSH_AUTH_SOCK"}
            done = subprocess.run(
                [SSH, "-p", str(host.port), "-i", str(path_b), "-o", "BatchMode=yes",
                 "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                 "-o", "IdentitiesOnly=yes", "-F", "/dev/null", "ann@127.0.0.1"],
                capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, env=env)
            assert done.returncode == 255
            assert "railgames: the name 'ann' belongs to another player's key" in done.stderr
            assert "Permission denied" in done.stderr
    finally:
        host.kill()


# ------------------------------------------------------------------ failed logins
def test_failed_logins_from_one_address_are_refused_and_logged(tmp_path: Path) -> None:
    host = HostProcess(tmp_path / "data", "--login-failures", "3").start()

    async def scenario() -> None:
        for _ in range(2):
            with pytest.raises(asyncssh.PermissionDenied):
                await connect(host.port, "ann", "nope")
        # The third failure uses the address's tries up: refused with the reason.
        with pytest.raises(asyncssh.DisconnectError, match="too many failed logins"):
            await connect(host.port, "ann", "nope")
        # Now even the right password is not looked at, from this address.
        with pytest.raises(asyncssh.DisconnectError, match="too many failed logins from "
                                                           "127.0.0.1"):
            await connect(host.port, "bob", PASSWORD)

    try:
        run(scenario)
        failed = log_events(host, "login_failed")
        assert len(failed) == 3 and failed[-1].get("limited") is True
        assert [e for e in log_events(host, "refused") if "too many failed logins" in e["reason"]]
        assert not log_events(host, "login")
    finally:
        host.kill()


# ------------------------------------------------------------------ the operator
def test_admin_list_kick_rename_ban_and_forget_on_a_running_host(tmp_path: Path) -> None:
    data = tmp_path / "data"
    host = HostProcess(data).start()
    token = data / "host" / "admin-token"
    assert token.stat().st_mode & 0o777 == 0o600

    async def scenario() -> None:
        cat = await Terminal().open(host.port, "cat", PASSWORD)
        ann = await Terminal().open(host.port, "ann", PASSWORD)
        listed = admin(data, "list")
        assert listed.returncode == 0, listed.stderr
        assert "cat" in listed.stdout and "ann" in listed.stdout and "online" in listed.stdout
        assert "scrypt" not in listed.stdout

        kicked = admin(data, "kick", "cat")
        assert kicked.returncode == 0 and "1 session ended" in kicked.stdout, kicked.stderr
        await cat.wait_for("the host's operator ended your session")
        assert cat.proc is not None
        await asyncio.wait_for(cat.proc.wait_closed(), 30)

        renamed = admin(data, "rename", "ann", "anna")
        assert renamed.returncode == 0, renamed.stderr
        await ann.wait_for("renamed you to anna")
        with pytest.raises(asyncssh.DisconnectError, match="now 'anna'"):
            await connect(host.port, "ann", passphrase_for("ann"))
        anna = await Terminal().open(host.port, "anna", passphrase_for("ann"), exactly=True)
        await anna.wait_for("You are anna")
        await anna.close()

        # A connection logged in before the ban, with no session yet (as an ssh -M master
        # may be), cannot start one after it.
        idle = await connect(host.port, "cat", passphrase_for("cat"))
        assert admin(data, "ban", "cat").returncode == 0
        with pytest.raises(asyncssh.ChannelOpenError, match="banned"):
            await idle.create_process(term_type="xterm")
        idle.close()
        with pytest.raises(asyncssh.DisconnectError, match="banned"):
            await connect(host.port, "cat", passphrase_for("cat"))
        assert admin(data, "unban", "cat").returncode == 0
        (await connect(host.port, "cat", passphrase_for("cat"))).close()

        assert admin(data, "forget", "cat").returncode == 0
        again = await Terminal().open(host.port, "cat", PASSWORD, exactly=True)
        await again.wait_for("Choose a passphrase for cat")  # a new name again
        await again.close()

        wrong = admin(data, "kick", "a b")
        assert wrong.returncode == 1 and "not a player's name" in wrong.stderr
        await ann.close()
        await cat.close()

    try:
        run(scenario)
        changes = [(e["command"], e.get("name")) for e in log_events(host, "admin")]
        assert changes == [("kick", "cat"), ("rename", "ann"), ("ban", "cat"),
                           ("unban", "cat"), ("forget", "cat")]
        assert [e["user"] for e in log_events(host, "kicked")] == ["cat", "ann"]
    finally:
        host.kill(15)  # SIGTERM: the host closes, and takes its token away
    assert not token.exists()


def test_admin_ban_key_ends_the_sessions_of_that_key(tmp_path: Path) -> None:
    key_a, _ = make_key(tmp_path, "a")
    authorized = tmp_path / "authorized_keys"
    authorized.write_bytes(key_a.export_public_key())
    data = tmp_path / "data"
    host = HostProcess(data, "--authorized-keys", str(authorized), password="").start()
    fingerprint = key_a.get_fingerprint("sha256")

    async def scenario() -> None:
        ann = await Terminal().open(host.port, "ann", client_keys=[key_a])
        await ann.wait_for("You are ann")
        assert fingerprint in admin(data, "list").stdout
        banned = admin(data, "ban-key", fingerprint)
        assert banned.returncode == 0, banned.stderr
        await ann.wait_for("your key is banned on this host")
        with pytest.raises(asyncssh.DisconnectError, match="key is banned"):
            await connect(host.port, "bob", client_keys=[key_a])
        await ann.close()

    try:
        run(scenario)
        assert [e["key"] for e in log_events(host, "admin")] == [fingerprint]
    finally:
        host.kill()


def test_admin_without_a_running_host_changes_the_register_and_logs(tmp_path: Path) -> None:
    data = tmp_path / "data"
    host = HostProcess(data).start()

    async def claim() -> None:
        await (await Terminal().open(host.port, "cat", PASSWORD)).close()

    try:
        run(claim)
    finally:
        host.kill(15)  # SIGTERM: the host goes, its token with it
    done = admin(data, "rename", "cat", "kitty")
    assert done.returncode == 0, done.stderr
    line = json.loads(done.stderr.strip().splitlines()[-1])
    assert line["event"] == "admin" and line["command"] == "rename" and line["to"] == "kitty"
    assert "kitty" in register(data)["players"]
    nobody = admin(data, "kick", "kitty")
    assert nobody.returncode == 1 and "no host is running" in nobody.stderr
