"""``railgames serve``: a browser player and an SSH player at one table."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from host_terminal import HostProcess, Terminal, WebTerminal, passphrase_for

pytest.importorskip("textual_serve")

PASSWORD = "table-pw"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_browser_player_and_an_ssh_player_share_a_table(tmp_path: Path) -> None:
    data = tmp_path / "data"
    host = HostProcess(data).start()
    port = free_port()
    serve = subprocess.Popen(
        [sys.executable, "-m", "railgames.cli", "serve", "--data-dir", str(data), "--port",
         str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL, env={**os.environ})
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
                    assert b"textual" in page.read()
                break
            except OSError:
                if time.monotonic() > deadline or serve.poll() is not None:
                    raise
                time.sleep(0.3)

        async def scenario() -> None:
            ann = await Terminal().open(host.port, "ann", PASSWORD)
            web = await WebTerminal().open_web(port)
            try:
                await ann.wait_for("Host a table")
                ann.press("down")
                await ann.wait_for("Paris Connection\\s+│", 10)
                ann.press("h")
                await ann.wait_for("Game\\s+Paris Connection")
                ann.press("enter")
                code = (await ann.wait_for(r"Table ([A-Z]{4})")).group(1)

                await web.wait_for("Your name")

                async def typed(*keys: str) -> None:
                    for key in keys:  # one at a time, as fingers do
                        web.press(key)
                        await asyncio.sleep(0.3)

                await typed("bob")
                await web.wait_for("Your name bob")
                await typed("tab")
                await asyncio.sleep(1.0)  # the focus has moved to the password
                await typed("wrong", "enter")
                await web.wait_for("Wrong table password")
                await typed(*["\x7f"] * 5, PASSWORD, "enter")
                # A new name: its passphrase is chosen before anything else.
                await web.wait_for("Choose a passphrase for bob")
                for field, then in (("Passphrase", "tab"), ("Again", "enter")):
                    await asyncio.sleep(1.0)
                    await typed(passphrase_for("bob"))
                    await web.wait_for(field + r"\s*•")
                    await typed(then)
                await web.wait_for("You are bob")
                await typed("j")
                await web.wait_for("Code")
                await typed(code, "enter")
                for term in (ann, web):
                    await term.wait_for("Paris Connection · turn")
                    await term.wait_for("Yours:")
                await web.wait_for("B  bob")
                assert "ann is dealt" not in web.text() and "bob is dealt" not in ann.text()
            finally:
                await ann.close()
                await web.close()

        asyncio.run(asyncio.wait_for(scenario(), 180))
    finally:
        serve.terminate()
        try:
            serve.wait(10)
        except subprocess.TimeoutExpired:
            serve.kill()
        host.kill()
    assert '"method": "web password"' in host.log_lines()
