"""``railgames serve``: a browser player and an SSH player at one table; what a browser
must give to log in, the caps on browser sessions, a page that loads nothing from
elsewhere, and HTTPS."""

from __future__ import annotations

import asyncio
import datetime
import json
import os
import re
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import asyncssh
import pytest
from host_terminal import HostProcess, Terminal, WebTerminal, passphrase_for

from railgames.net.webserve import client_address

pytest.importorskip("textual_serve")

PASSWORD = "table-pw"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Serve:
    """``railgames serve`` beside a host, on a free port; waits until its page answers."""

    def __init__(self, data: Path, *extra: str, tls: ssl.SSLContext | None = None) -> None:
        self.port = free_port()
        self.log = data / "serve.log"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "railgames.cli", "serve", "--data-dir", str(data), "--port",
             str(self.port), *extra], stdout=subprocess.DEVNULL,
            stderr=self.log.open("a"), stdin=subprocess.DEVNULL, env={**os.environ})
        self.base = f"{'https' if tls else 'http'}://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(self.base + "/", timeout=5, context=tls) as page:
                    assert b"textual-terminal" in page.read()
                break
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise
                time.sleep(0.3)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)

    def events(self, kind: str) -> list[dict[str, Any]]:
        lines = [json.loads(line) for line in self.log.read_text().splitlines()
                 if line.startswith("{")]
        return [line for line in lines if line.get("event") == kind]


@pytest.fixture
def host(tmp_path: Path) -> Iterator[HostProcess]:
    process = HostProcess(tmp_path / "data", "--login-failures", "3").start()
    yield process
    process.kill()


async def typed(web: WebTerminal, *keys: str) -> None:
    for key in keys:  # one at a time, as fingers do
        web.press(key)
        await asyncio.sleep(0.3)


async def log_in(web: WebTerminal, name: str, password: str) -> None:
    await web.wait_for("Your name")
    await typed(web, name)
    await web.wait_for(f"Your name {name}")
    # Tab to the password, and give the app a moment to move the focus before the next key.
    await typed(web, "tab")
    await asyncio.sleep(1.0)
    await typed(web, password)
    assert re.search(f"Your name {name}\\s*$", web.text(), re.M), web.text()
    assert password not in web.text()
    await typed(web, "enter")


def test_a_browser_player_and_an_ssh_player_share_a_table(tmp_path: Path) -> None:
    data = tmp_path / "data"
    host = HostProcess(data).start()
    serve = Serve(data)
    try:
        async def scenario() -> None:
            ann = await Terminal().open(host.port, "ann", PASSWORD)
            web = await WebTerminal().open_web(serve.port)
            try:
                await ann.wait_for("Host a table")
                ann.press("g")
                await ann.wait_for("Watch a demo")
                ann.press("down")
                await ann.wait_for("Paris Connection\\s+│", 10)
                ann.press("h")
                await ann.wait_for("Game\\s+Paris Connection")
                ann.press("enter")
                code = (await ann.wait_for(r"Table ([A-Z]{4})")).group(1)

                await log_in(web, "bob", "wrong")
                await web.wait_for("Wrong table password")
                await typed(web, *["\x7f"] * 5, PASSWORD, "enter")
                # A new name: its passphrase is chosen before anything else.
                await web.wait_for("Choose a passphrase for bob")
                for field, then in (("Choose it", "tab"), ("Again", "enter")):
                    await asyncio.sleep(1.0)
                    await typed(web, passphrase_for("bob"))
                    await web.wait_for(field + r"\s*•")
                    await typed(web, then)
                # The same home screen as over SSH: bob's tables (none yet), and the keys.
                await web.wait_for("Your tables  ·  You are bob")
                await web.wait_for("You have no tables on this host yet")
                await typed(web, "j")
                await web.wait_for("Code")
                await typed(web, code, "enter")
                for term in (ann, web):
                    await term.wait_for("Paris Connection · turn")
                    await term.wait_for("Yours:")
                await web.wait_for("B  bob")
                assert "ann is dealt" not in web.text() and "bob is dealt" not in ann.text()
                # Back on the home screen, the browser lists the table, and who is there.
                await typed(web, "q")
                await web.wait_for(r"Your tables \[l\]")
                await typed(web, "l")
                await web.wait_for(f"{code}  Paris Connection · ")
                await web.wait_for("here: ann")
            finally:
                await ann.close()
                await web.close()
            # bob's name is bob's now: over SSH too, the table password no longer opens it.
            with pytest.raises(asyncssh.PermissionDenied):
                await asyncssh.connect("127.0.0.1", host.port, username="bob",
                                       password=PASSWORD, known_hosts=None, client_keys=None,
                                       agent_path=None)
            (await asyncssh.connect("127.0.0.1", host.port, username="bob",
                                    password=passphrase_for("bob"), known_hosts=None,
                                    client_keys=None, agent_path=None)).close()

        asyncio.run(asyncio.wait_for(scenario(), 180))
    finally:
        serve.stop()
        host.kill()
    assert '"method": "web password"' in host.log_lines()


def test_a_browser_needs_the_names_passphrase_and_is_refused_after_failures(
        host: HostProcess) -> None:
    serve = Serve(host.data_dir)

    async def scenario() -> None:
        await (await Terminal().open(host.port, "cat", PASSWORD)).close()  # Cat's name now
        web = await WebTerminal().open_web(serve.port)
        try:
            await log_in(web, "cat", passphrase_for("cat"))
            await web.wait_for("You are cat")
            assert "Choose a passphrase" not in web.text()
        finally:
            await web.close()
        web = await WebTerminal().open_web(serve.port)
        try:
            await log_in(web, "cat", PASSWORD)  # someone else, with the table password
            await web.wait_for("Wrong passphrase for cat")
            for _ in range(2):
                await typed(web, *["\x7f"] * 10, "nope-nope", "enter")
                await asyncio.sleep(1.0)
            # Three failures from this address: even the right passphrase is not looked at.
            await typed(web, *["\x7f"] * 10, passphrase_for("cat"), "enter")
            await web.wait_for("Too many failed logins from 127.0.0.1")
            assert "You are cat" not in web.text()
        finally:
            await web.close()
        # The same address over SSH: the same count.
        with pytest.raises(asyncssh.DisconnectError, match="too many failed logins"):
            await asyncssh.connect("127.0.0.1", host.port, username="ann", password=PASSWORD,
                                   known_hosts=None, client_keys=None, agent_path=None)

    try:
        asyncio.run(asyncio.wait_for(scenario(), 180))
    finally:
        serve.stop()
    log = [json.loads(line) for line in host.log_lines().splitlines() if line.startswith("{")]
    failed = [e for e in log if e.get("event") == "login_failed"]
    assert [e["peer"] for e in failed] == ["127.0.0.1"] * 3
    assert failed[-1].get("limited") is True
    assert any(e.get("event") == "refused" and e.get("method") == "web password"
               and "too many failed logins" in e["reason"] for e in log)


def test_browser_sessions_are_capped_per_address_and_in_all(host: HostProcess) -> None:
    serve = Serve(host.data_dir, "--max-sessions", "2", "--per-ip", "1")

    async def scenario() -> None:
        first = await WebTerminal().open_web(serve.port)
        await first.wait_for("Your name")
        same = await WebTerminal().open_web(serve.port)  # the same address again
        await same.wait_for(r"railgames: too many sessions from 127\.0\.0\.1 \(1 at most\)")
        await same.close()
        other = await WebTerminal().open_web(serve.port, source="127.0.0.2")
        await other.wait_for("Your name")
        full = await WebTerminal().open_web(serve.port, source="127.0.0.3")
        await full.wait_for(r"railgames: the host is full \(2 browser sessions\)")
        await full.close()
        # A session that ends gives its place back, once (when its app process has gone).
        await first.close()
        deadline = time.monotonic() + 60
        while not serve.events("web_session_ended"):
            assert time.monotonic() < deadline, "the first session never ended"
            await asyncio.sleep(0.2)
        again = await WebTerminal().open_web(serve.port)
        await again.wait_for("Your name")
        await again.close()
        await other.close()

    try:
        asyncio.run(asyncio.wait_for(scenario(), 180))
    finally:
        serve.stop()
    refused = [e["reason"] for e in serve.events("refused")]
    assert len(refused) == 2 and "too many sessions" in refused[0] and "full" in refused[1]
    assert len(serve.events("web_session_started")) == 3


def test_behind_a_proxy_the_address_it_forwards_is_the_one_counted(host: HostProcess) -> None:
    serve = Serve(host.data_dir, "--per-ip", "1", "--forwarded-for")

    def via(*hops: str) -> dict[str, str]:
        return {"X-Forwarded-For": ", ".join(hops)}

    async def scenario() -> None:
        # The last address is the proxy's word; those before it are the browser's own.
        first = await WebTerminal().open_web(serve.port, headers=via("10.9.9.9", "198.51.100.7"))
        await first.wait_for("Your name")
        same = await WebTerminal().open_web(serve.port, headers=via("198.51.100.7"))
        await same.wait_for(r"railgames: too many sessions from 198\.51\.100\.7 \(1 at most\)")
        await same.close()
        await first.close()

    try:
        asyncio.run(asyncio.wait_for(scenario(), 180))
    finally:
        serve.stop()
    assert [e["peer"] for e in serve.events("web_session_started")] == ["198.51.100.7"]
    assert serve.events("serve_started")[0]["forwarded_for"] is True


def test_the_forwarded_address_is_taken_only_when_trusted_and_well_formed() -> None:
    assert client_address("127.0.0.1", ["198.51.100.7"], False) == "127.0.0.1"
    assert client_address("127.0.0.1", ["1.1.1.1, 198.51.100.7"], True) == "198.51.100.7"
    assert client_address("127.0.0.1", ["1.1.1.1", "2001:db8::7"], True) == "2001:db8::7"
    assert client_address("127.0.0.1", [], True) == "127.0.0.1"
    assert client_address("127.0.0.1", ["1.1.1.1, not-an-address"], True) == "127.0.0.1"
    assert client_address(None, [""], True) == "?"


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("src", "href", "data-session-websocket-url") and value:
                self.urls.append(value)


def test_the_page_and_everything_it_loads_come_from_this_server(host: HostProcess) -> None:
    serve = Serve(host.data_dir)
    try:
        with urllib.request.urlopen(serve.base + "/", timeout=30) as answer:
            page = answer.read().decode()
            policy = answer.headers["Content-Security-Policy"]
        links = Links()
        links.feed(page)
        assert links.urls
        for url in links.urls:
            parts = urlsplit(url)
            assert not parts.netloc or parts.netloc == f"127.0.0.1:{serve.port}", url
        # Every file the page names, and every url() in its styles, is served here.
        styles = re.findall(r"url\(\"?([^\")]+)\"?\)", page)
        for url in [u for u in links.urls if not u.startswith("ws")] + styles:
            with urllib.request.urlopen(serve.base + url, timeout=30) as answer:
                body = answer.read()
                assert answer.status == 200 and body, url
                if url.endswith(".css"):  # its comments name no file to fetch
                    page += re.sub(r"/\*.*?\*/", "", body.decode(), flags=re.S)
        others = {m for m in re.findall(r"(?:https?|wss?)://([^/\"' )]+)", page)
                  if m != f"127.0.0.1:{serve.port}"}
        assert others <= {"www.w3.org"}, others  # the logo's SVG namespace, never fetched
        assert "googleapis" not in page
        # The browser is told to load nothing from anywhere else, and to be framed nowhere.
        assert "default-src 'none'" in policy and "font-src 'self'" in policy
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
        # No folder listing, no file outside the static folder.
        for path in ("/static/", "/static/../server.py", "/download/x"):
            request = urllib.request.Request(serve.base + path)
            with pytest.raises(urllib.error.HTTPError):
                urllib.request.urlopen(request, timeout=30)

        async def other_site() -> None:
            import aiohttp

            with pytest.raises(aiohttp.WSServerHandshakeError):
                await WebTerminal().open_web(serve.port,
                                             headers={"Origin": "http://evil.example"})

        asyncio.run(asyncio.wait_for(other_site(), 60))
    finally:
        serve.stop()
    assert serve.events("refused")[0]["origin"] == "http://evil.example"


def self_signed(folder: Path) -> tuple[Path, Path]:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    import ipaddress

    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .sign(key, hashes.SHA256()))
    certfile, keyfile = folder / "cert.pem", folder / "key.pem"
    certfile.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    keyfile.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                          serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))
    return certfile, keyfile


def test_https_with_a_certificate(host: HostProcess, tmp_path: Path) -> None:
    certfile, keyfile = self_signed(tmp_path)
    tls = ssl.create_default_context(cafile=str(certfile))
    serve = Serve(host.data_dir, "--certfile", str(certfile), "--keyfile", str(keyfile),
                  tls=tls)
    try:
        with urllib.request.urlopen(serve.base + "/", timeout=30, context=tls) as answer:
            page = answer.read().decode()
        assert f'data-session-websocket-url="wss://127.0.0.1:{serve.port}/ws"' in page
        with pytest.raises(OSError):  # plain HTTP gets nothing
            urllib.request.urlopen(f"http://127.0.0.1:{serve.port}/", timeout=30).read()

        async def scenario() -> None:
            web = await WebTerminal().open_web(serve.port, tls=tls)
            try:
                await web.wait_for("Your name")
            finally:
                await web.close()

        asyncio.run(asyncio.wait_for(scenario(), 120))
    finally:
        serve.stop()
    assert serve.events("serve_started")[0]["https"] is True


def test_serve_refuses_a_missing_key_or_an_unreadable_certificate(host: HostProcess,
                                                                  tmp_path: Path) -> None:
    def serve(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "railgames.cli", "serve", "--data-dir",
                               str(host.data_dir), "--port", str(free_port()), *extra],
                              capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL)

    lone = serve("--certfile", str(tmp_path / "cert.pem"))
    assert lone.returncode == 1 and "go together" in lone.stderr
    (tmp_path / "cert.pem").write_text("not a certificate")
    (tmp_path / "key.pem").write_text("not a key")
    bad = serve("--certfile", str(tmp_path / "cert.pem"), "--keyfile", str(tmp_path / "key.pem"))
    assert bad.returncode == 1 and "cannot be used" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
