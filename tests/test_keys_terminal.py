"""Keys written to a real terminal in one write are each handled, in order.

The app runs on a pseudo-terminal (``railgames play``) and through ``railgames
host`` over SSH; each burst of keys is one write, so it reaches the app in one
read, as a paste, tmux or a slow link delivers it. What was bid is read from the
save on disk, not from the screen.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pyte
import pytest
from host_terminal import HostProcess, Terminal, until

from benchmarks.ptyterm import PtyApp, terminal_env

BACKSPACE, ENTER = "\x7f", "\r"
WAIT = 60.0  # seconds any one thing may take to show


def saved_actions(data_dir: Path) -> list[dict[str, Any]]:
    """The actions of the one New England save under ``data_dir`` (none until it is written)."""
    saves = sorted(data_dir.rglob("saves/new-england-*.json"))
    assert len(saves) <= 1, saves
    if not saves:
        return []
    try:
        return list(json.loads(saves[0].read_text())["actions"])
    except (OSError, ValueError):  # (a save is replaced whole; never seen half written)
        return []


def wait_until(check: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        time.sleep(0.05)


class PtyScreen:
    """``railgames`` on a pseudo-terminal, its output read through a screen emulator."""

    def __init__(self, argv: list[str], data_dir: Path) -> None:
        self.screen = pyte.Screen(120, 40)
        self.stream = pyte.ByteStream(self.screen)
        self.fed = 0
        env = terminal_env(RAILGAMES_DATA_DIR=str(data_dir), RAILGAMES_BOT_DELAY="0")
        self.app = PtyApp([sys.executable, "-m", "railgames.cli", *argv], env=env)

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait_for(self, pattern: str, timeout: float = WAIT) -> re.Match[str]:
        found: list[re.Match[str]] = []

        def shows(output: bytes) -> bool:
            self.stream.feed(output[self.fed:])
            self.fed = len(output)
            match = re.search(pattern, self.text())
            if match:
                found.append(match)
            return match is not None

        try:
            self.app.wait_for(shows, timeout)
        except TimeoutError:
            raise TimeoutError(f"no {pattern!r} on the screen:\n{self.text()}") from None
        return found[0]

    def write(self, keys: str) -> None:
        """``keys`` in one write: the app reads them together."""
        self.app.send(keys)


def field(term: Any, amount: str) -> None:
    """The bid field shows ``amount``, typed (the cursor bar after it)."""
    term.wait_for(rf"Bid:\s+\${amount} ▏")


@pytest.fixture
def played(tmp_path: Path) -> Iterator[tuple[PtyScreen, Path]]:
    data = tmp_path / "data"
    # (New England hides nothing: its hand-off screens are asked for.)
    term = PtyScreen(["play", "new-england", "--players", "Ann,Bob,Cat", "--seed", "1", "--handoff"],
                     data)
    try:
        yield term, data
    finally:
        term.app.close()


def test_a_burst_goes_through_prompts_and_hand_off_screens_in_order(
        played: tuple[PtyScreen, Path]) -> None:
    term, data = played
    term.wait_for("Borrow:")
    # One write: no loan for Ann; Bob ready, no loan; Cat ready, no loan; Ann ready
    # for the auction, and she bids 2.
    term.write(ENTER * 6 + "2" + ENTER)
    wait_until(lambda: len(saved_actions(data)) >= 4, "the burst's moves were never saved")
    assert saved_actions(data) == [
        {"type": "borrow", "seat": 0, "amount": 0}, {"type": "borrow", "seat": 1, "amount": 0},
        {"type": "borrow", "seat": 2, "amount": 0}, {"type": "bid", "seat": 0, "amount": 2}]


def test_bursts_in_a_bid_field_bid_exactly_what_they_say(played: tuple[PtyScreen, Path]) -> None:
    term, data = played
    # To the auction one key at a time, each waited for.
    for shown in ("Acquire Bank Loans — Ann", "Pass the keyboard to", "Acquire Bank Loans — Bob",
                  "Pass the keyboard to", "Acquire Bank Loans — Cat", "Pass the keyboard to"):
        term.wait_for(shown)
        term.write(ENTER)
    term.wait_for("Auction — Ann")
    term.write("15" + ENTER)  # more than Ann's $10: refused, and kept in the field
    term.wait_for(r"a bid of \$15 needs")
    field(term, "15")
    term.write(BACKSPACE * 2 + "3" + ENTER)
    wait_until(lambda: len(saved_actions(data)) >= 4, "Ann's bid was never saved")
    assert saved_actions(data)[3:] == [{"type": "bid", "seat": 0, "amount": 3}]
    term.wait_for("Pass the keyboard to")
    term.write(ENTER)
    term.wait_for("Auction — Bob")
    term.write("7")
    field(term, "7")
    term.write(BACKSPACE + "4")
    field(term, "4")
    term.write(BACKSPACE + "7" + BACKSPACE + "5" + ENTER)
    wait_until(lambda: len(saved_actions(data)) >= 5, "Bob's bid was never saved")
    assert saved_actions(data)[4:] == [{"type": "bid", "seat": 1, "amount": 5}]


# ------------------------------------------------------------ over SSH
def run(test: Callable[[], Any]) -> None:
    asyncio.run(asyncio.wait_for(test(), 240))




def write(term: Terminal, keys: str) -> None:
    """``keys`` as one write on the SSH channel."""
    assert term.proc is not None
    term.proc.stdin.write(keys.encode())


def test_bursts_through_the_ssh_host_bid_exactly_what_they_say(tmp_path: Path) -> None:
    host = HostProcess(tmp_path / "data").start()

    async def scenario() -> None:
        ann = await Terminal().open(host.port, "ann", host.password)
        try:
            await ann.wait_for("Host a table")
            write(ann, "g")  # from the player's tables to the games' list
            await ann.wait_for("Watch a demo")
            # New game (New England, first in the list), Start (focused), and three
            # loans of $0: one write, across the launcher, the set-up and three prompts.
            write(ann, "n" + ENTER + ENTER * 3)
            await ann.wait_for(r"Auction — \w+", WAIT)
            assert [(a["type"], a["amount"]) for a in saved_actions(host.data_dir)] == [
                ("borrow", 0)] * 3
            write(ann, "7")
            await ann.wait_for(r"Bid:\s+\$7 ▏")
            write(ann, BACKSPACE + "4")
            await ann.wait_for(r"Bid:\s+\$4 ▏")
            write(ann, BACKSPACE + "15" + ENTER)  # more than the $10 each has: refused
            await ann.wait_for(r"a bid of \$15 needs")
            write(ann, BACKSPACE * 2 + "3" + ENTER)
            await until(lambda: len(saved_actions(host.data_dir)) > 3, "the bid was never saved",
                        WAIT)
            bid = saved_actions(host.data_dir)[3]
            assert (bid["type"], bid["amount"]) == ("bid", 3)
        finally:
            await ann.close()

    try:
        run(scenario)
    finally:
        host.kill()
