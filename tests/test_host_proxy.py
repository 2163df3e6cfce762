"""``railgames host --proxy-protocol``: behind HAProxy, the client's own address counts.

HAProxy (Debian's package; the test command installs it) is started on a free loopback
port in front of one host, and reaches it from 127.0.0.2: every address the host could
see without the PROXY header is 127.0.0.2, so a log line or a per-address refusal naming
127.0.0.1 or 127.0.0.3 can only come from the header.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import struct
import subprocess
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from host_terminal import HostProcess, Terminal, client_key

from railgames.cli import main
from railgames.net.proxyproto import V2_SIGNATURE

PASSWORD = "table-pw"
HAPROXY = shutil.which("haproxy") or ("/usr/sbin/haproxy" if os.access("/usr/sbin/haproxy", os.X_OK)
                                      else None)
SSH = shutil.which("ssh")


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), 120))


def events(host: HostProcess, name: str) -> list[dict[str, Any]]:
    found = []
    for line in host.log_lines().splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if record.get("event") == name:
            found.append(record)
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def v2_header(client: tuple[str, int], server: tuple[str, int]) -> bytes:
    body = struct.pack("!4s4sHH", socket.inet_aton(client[0]), socket.inet_aton(server[0]),
                       client[1], server[1])
    return V2_SIGNATURE + b"\x21\x11" + struct.pack("!H", len(body)) + body


async def connect_as(port: int, client: tuple[str, int], name: str,
                     header: bytes | None = None) -> asyncssh.SSHClientConnection:
    """Log in over a connection whose PROXY header names ``client``."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(header if header is not None else v2_header(client, ("127.0.0.1", port)))
    return await asyncssh.connect(sock=sock, username=name, password=PASSWORD,
                                  known_hosts=None, client_keys=None, agent_path=None)


def test_without_a_header_a_connection_is_dropped_with_one_line_and_holds_up_no_one(
        tmp_path: Path) -> None:
    # The key every host behind the balancer shows (--host-key), not one of its own.
    key = asyncssh.generate_private_key("ssh-ed25519")
    key_file = tmp_path / "ssh_host_ed25519_key"
    key_file.write_bytes(key.export_private_key())
    host = HostProcess(tmp_path / "data", "--proxy-protocol", "--per-ip", "1",
                       "--host-key", str(key_file)).start()
    assert f"host key ({key_file}): {key.get_fingerprint('sha256')}" in host.greeting
    assert not (tmp_path / "data" / "host" / "ssh_host_ed25519_key").exists()
    assert "players connect through the load balancer" in host.greeting

    async def scenario() -> None:
        # A client that says nothing, left waiting while others come and go.
        silent_reader, silent = await asyncio.open_connection("127.0.0.1", host.port)
        # An SSH client that did not come through the balancer: refused at its first bytes.
        reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
        writer.write(b"SSH-2.0-OpenSSH_9.2\r\n")
        await hung_up(reader)
        writer.close()
        # Meanwhile a client with a header logs in and has a session; its address is the
        # header's, for the log and for --per-ip.
        first = await Terminal().open(host.port, "ann", PASSWORD, exactly=True,
                                      sock=_with_header(host.port, ("198.51.100.7", 40001)))
        try:
            await asyncio.sleep(0.5)  # its session is counted once its channel is open
            with pytest.raises(asyncssh.DisconnectError, match="too many sessions from 198.51.100.7"):
                await connect_as(host.port, ("198.51.100.7", 40002), "bob")
            other = await connect_as(host.port, ("198.51.100.8", 40003), "cat")
            assert other.get_server_host_key() == key.convert_to_public()
            other.close()
        finally:
            await first.close()
        # The silent one is let go once its few seconds are up.
        await hung_up(silent_reader)
        silent.close()

    try:
        run(scenario)
    finally:
        host.kill()
    refused = [e for e in events(host, "refused") if "PROXY protocol" in e["reason"]]
    assert len(refused) == 2, refused
    assert "did not start with a PROXY protocol header" in refused[0]["reason"]
    assert "no whole header within 5 seconds" in refused[1]["reason"]
    assert all(e["peer"].startswith("127.0.0.1:") for e in refused)
    logins = {e["user"]: e["peer"] for e in events(host, "login")}
    assert logins == {"ann": "198.51.100.7:40001", "cat": "198.51.100.8:40003"}
    assert any(e["reason"].startswith("too many sessions from 198.51.100.7")
               for e in events(host, "refused"))


async def hung_up(reader: asyncio.StreamReader) -> None:
    """The host closed the connection without a word (unread bytes make it a reset)."""
    try:
        assert await asyncio.wait_for(reader.read(), 30) == b""
    except ConnectionResetError:
        pass


def _with_header(port: int, client: tuple[str, int]) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(v2_header(client, ("127.0.0.1", port)))
    return sock


@pytest.mark.skipif(HAPROXY is None, reason="HAProxy is not installed "
                                            "(Debian: apt-get install haproxy)")
def test_behind_haproxy_the_host_sees_and_limits_the_clients_own_address(tmp_path: Path) -> None:
    key, key_file, authorized = client_key(tmp_path)
    host = HostProcess(tmp_path / "data", "--proxy-protocol", "--per-ip", "1",
                       "--authorized-keys", str(authorized), password="").start()
    v2_port, v1_port = free_port(), free_port()
    config = tmp_path / "haproxy.cfg"
    # Health checks send a LOCAL header (v2): the host takes them as the balancer's own.
    config.write_text(f"""
global
    maxconn 100
defaults
    mode tcp
    timeout connect 5s
    timeout client 2m
    timeout server 2m
listen ssh_v2
    bind 127.0.0.1:{v2_port}
    server host1 127.0.0.1:{host.port} send-proxy-v2 source 127.0.0.2 check check-send-proxy inter 300ms
listen ssh_v1
    bind 127.0.0.1:{v1_port}
    server host1 127.0.0.1:{host.port} send-proxy source 127.0.0.2
""")
    assert HAPROXY is not None
    haproxy = subprocess.Popen([HAPROXY, "-db", "-f", str(config)], stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    async def scenario() -> None:
        for port in (v2_port, v1_port):  # HAProxy listening
            deadline = time.monotonic() + 30
            while True:
                try:
                    _, writer = await asyncio.open_connection("127.0.0.1", port)
                    writer.close()
                    break
                except OSError:
                    if time.monotonic() > deadline or haproxy.poll() is not None:
                        raise
                    await asyncio.sleep(0.1)
        # The asyncssh client knows its own port: the host's log names exactly it.
        kw: dict[str, Any] = {"client_keys": [key], "exactly": True}
        first = await Terminal().open(v2_port, "ann", None, **kw)
        try:
            assert first.conn is not None
            mine = first.conn.get_extra_info("sockname")
            await asyncio.sleep(0.5)
            # --per-ip counts the client's address (127.0.0.1), not the balancer's.
            with pytest.raises(asyncssh.DisconnectError, match="too many sessions from 127.0.0.1"):
                await Terminal().open(v2_port, "bob", None, **kw)
            other = await Terminal().open(v2_port, "cat", None, local_addr=("127.0.0.3", 0), **kw)
            await other.close()
        finally:
            await first.close()
        logins = {e["user"]: e["peer"] for e in events(host, "login")}
        assert logins["ann"] == f"127.0.0.1:{mine[1]}"
        assert logins["cat"].startswith("127.0.0.3:")
        # The real OpenSSH client, through the version 1 header: logged in (a command is
        # refused once it is in), as 127.0.0.1.
        if SSH is not None:
            done = await asyncio.to_thread(
                subprocess.run,
                [SSH, "-p", str(v1_port), "-i", str(key_file), "-o", "BatchMode=yes",
                 "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                 "-o", "IdentitiesOnly=yes", "-o", "ConnectTimeout=20", "-F", "/dev/null",
                 "dan@127.0.0.1", "id"],
                capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
                env={k: v for k, v in os.environ.items() if k != "SSH_AUTH_SOCK"})
            assert done.returncode == 1 and "runs no commands" in done.stderr, done.stderr
            dan = [e for e in events(host, "login") if e["user"] == "dan"]
            assert dan and dan[0]["peer"].startswith("127.0.0.1:")

    try:
        run(scenario)
    finally:
        haproxy.terminate()
        try:
            haproxy.wait(10)
        except subprocess.TimeoutExpired:
            haproxy.kill()
            haproxy.wait(10)
        host.kill()
    connections = events(host, "connection")
    # Each connection through HAProxy came from 127.0.0.2; each is logged as its client.
    assert all(e["proxy"].startswith("127.0.0.2:") for e in connections)
    clients = [e for e in connections if not e["peer"].startswith("127.0.0.2:")]
    assert {e["peer"].split(":")[0] for e in clients} == {"127.0.0.1", "127.0.0.3"}
    # HAProxy's health checks (LOCAL) are the balancer's own connections, never refused.
    assert any(e["peer"].startswith("127.0.0.2:") for e in connections)
    assert not [e for e in events(host, "refused") if "PROXY protocol" in e["reason"]]


def test_a_host_key_that_cannot_be_used_is_one_line(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    (tmp_path / "not-a-key").write_text("hello\n")
    encrypted = tmp_path / "encrypted"
    encrypted.write_bytes(asyncssh.generate_private_key("ssh-ed25519")
                          .export_private_key(passphrase="secret"))
    for path, said in ((tmp_path / "missing", "cannot read"), (tmp_path / "not-a-key", "is not a"),
                       (encrypted, "is not a private key without a passphrase")):
        assert main(["host", "--port", "0", "--data-dir", str(data), "--host-key", str(path)]) == 1
        err = capsys.readouterr().err
        assert err.startswith("railgames: --host-key: ") and said in err
        assert err.count("\n") == 1
    assert not data.exists()  # nothing started, nothing made
