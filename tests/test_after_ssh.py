"""``ssh NAME@HOST export CODE``: a finished game of the player's, printed as a saved game,
with the system's OpenSSH client against a real ``railgames host`` on a loopback port."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
from pathlib import Path

import asyncssh
import pytest
from host_terminal import HostProcess

from railgames.core.record import parse_record
from tests.test_after import finished, member, quick_service

SSH = shutil.which("ssh")


def new_key(folder: Path, name: str) -> tuple[Path, bytes]:
    key = asyncssh.generate_private_key("ssh-ed25519")
    path = folder / name
    path.write_bytes(key.export_private_key())
    path.chmod(0o600)
    return path, key.export_public_key()


@pytest.mark.skipif(SSH is None, reason="the OpenSSH client is not installed "
                                        "(Debian: apt-get install openssh-client)")
def test_ssh_export_prints_the_players_finished_game_and_nothing_else_runs(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    service = quick_service(data / "tables")
    mine = finished(service, ["ann", "bob", "cat"])
    theirs = finished(service, ["bob", "cat", "dan"])
    going = service.create(member("ann")[0], "steel-driver", 3, 3)
    service.close()
    ann_key, ann_public = new_key(tmp_path, "ann")
    eve_key, eve_public = new_key(tmp_path, "eve")
    authorized = tmp_path / "authorized_keys"
    authorized.write_bytes(ann_public + eve_public)
    host = HostProcess(data, "--authorized-keys", str(authorized), password="").start()
    env = {k: v for k, v in os.environ.items() if k != "SSH_AUTH_SOCK"}

    def ssh(key: Path, login: str, *command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(SSH), "-p", str(host.port), "-i", str(key), "-o", "BatchMode=yes",
             "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
             "-o", "IdentitiesOnly=yes", "-o", "ConnectTimeout=20", "-o", "LogLevel=ERROR",
             "-F", "/dev/null",
             f"{login}@127.0.0.1", *command],
            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, env=env)

    try:
        done = ssh(ann_key, "ann", "export", mine.code.lower())
        assert done.returncode == 0, done.stderr
        record = parse_record(done.stdout, "the export")
        assert record == mine.game.record  # type: ignore[union-attr]
        # Someone else's game, one not over, none at all: one line each, nothing printed.
        for code in (theirs.code, going.code):
            done = ssh(ann_key, "ann", "export", code)
            assert done.returncode == 1 and done.stdout == ""
            assert done.stderr.strip() == (f"railgames: there is no finished game '{code}' "
                                           "of yours on this host.")
        done = ssh(eve_key, "eve", "export", mine.code)  # not a player of it
        assert done.returncode == 1 and done.stdout == "" and "no finished game" in done.stderr
        # Any other command is refused as before.
        for command in (["id"], ["export", mine.code, "/etc/passwd"], ["export", "../etc"]):
            done = ssh(ann_key, "ann", *command)
            assert done.returncode == 1 and done.stdout == "", command
            assert "uid=" not in done.stderr and "root:" not in done.stderr
            assert len(done.stderr.strip().splitlines()) == 1
            assert ("runs no commands but 'export CODE'" in done.stderr
                    or "a table's code is 4 letters" in done.stderr)
    finally:
        host.kill()
    log = host.log_lines()
    assert '"event": "exported"' in log and '"reason": "exec"' in log


def test_a_name_nobody_owns_yet_exports_nothing(tmp_path: Path) -> None:
    """In with the table password under a new name: the name's passphrase comes first."""
    data = tmp_path / "data"
    service = quick_service(data / "tables")
    mine = finished(service, ["ann", "bob", "cat"])
    service.close()
    host = HostProcess(data).start()

    async def scenario() -> None:
        async with asyncssh.connect("127.0.0.1", host.port, username="ann",
                                    password=host.password, known_hosts=None,
                                    client_keys=None, agent_path=None) as conn:
            result = await conn.run(f"export {mine.code}", timeout=30)
            assert result.exit_status == 1 and result.stdout == ""
            assert "choose its passphrase" in str(result.stderr)

    try:
        asyncio.run(asyncio.wait_for(scenario(), 120))
    finally:
        host.kill()
