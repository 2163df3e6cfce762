"""Three people play a turn-based Railways of the World table over the real ``ssh``.

Each logs in for their move and out again: Ann sets the table up by keyboard on
an 80×24 terminal, Bob and Cy join it by its code, then whoever's move it is
logs in, sees "your move" on the home screen, goes to the table, passes, and
quits. The host runs a notify command that appends what it is given to a file:
each move that becomes a person's while they are away is told exactly once.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from host_terminal import HostProcess, OpenSshTerminal, kept_record, until

from railgames.core.engine import Game
from railgames.games import load_ruleset

LIMIT = 600
PEOPLE = ("ann", "bob", "cy")
SIZES = {"ann": (80, 24), "bob": (120, 40), "cy": (80, 24)}
MOVES = 4  # the auction (three passes) and the first action of the first round


def told(path: Path) -> list[dict[str, object]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def to_move(data: Path, code: str) -> str:
    """Whose move the host's kept record awaits."""
    record = kept_record(data, code)
    game = Game.replay(load_ruleset(record.game, record.map), record)
    seat = game.ruleset.to_move(game.state)
    assert seat is not None
    return str(record.players[seat].name)


async def log_in(name: str, password: str) -> OpenSshTerminal:
    width, height = SIZES[name]
    term = OpenSshTerminal(width, height, prefix="turn-ssh")
    await term.open(HOST_PORT[0], name, password)
    return term


async def quit_app(term: OpenSshTerminal, at_table: bool = True) -> None:
    """Log out: from a table, q and yes; from the home screen, q."""
    term.press("q")
    if at_table:
        await term.wait_for(r"Quit \[y\]", 30)
        term.press("y")
    for _ in range(30):  # the ssh client ends with the session
        if not term.alive():
            break
        await asyncio.sleep(0.5)
    else:
        raise AssertionError(f"the session did not end:\n{term.text()}")
    await term.close()


HOST_PORT = [0]


@pytest.mark.skipif(not OpenSshTerminal.available(), reason="needs the ssh client and tmux")
def test_three_people_play_a_turn_based_table_over_ssh_told_once_a_turn(tmp_path: Path) -> None:
    data = tmp_path / "data"
    out = tmp_path / "told.jsonl"
    host = HostProcess(data, "--notify-command", f"cat >> '{out}'; echo >> '{out}'",
                       password="table-pw").start()
    HOST_PORT[0] = host.port

    async def scenario() -> None:
        # Ann sets up a turn-based table of three people, by keyboard.
        ann = await log_in("ann", "table-pw")
        await ann.wait_for("Your tables", 60)
        ann.press("h")
        await ann.wait_for("Host a table", 60)
        await ann.wait_for(r"Open the table", 30)
        for _ in range(9):  # from the Open button back up to the game
            ann.press("shift+tab")
        ann.press("enter")
        await ann.wait_for("Railways of the World", 30)
        ann.press("down", "down", "down", "down", "enter")
        await ann.wait_for(r"Game\s+Railways of the World", 30)
        for _ in range(3):  # Board, Seats, Players
            ann.press("tab")
        ann.press("enter")
        await asyncio.sleep(1.0)
        ann.press("down", "enter")
        await ann.wait_for(r"Players\s+3", 30)
        ann.press("tab", "tab", "enter")  # Bots, then Pace
        await asyncio.sleep(1.0)
        ann.press("down", "enter")
        await ann.wait_for(r"Per move\s+24 h", 30)
        ann.press("ctrl+s")
        code = (await ann.wait_for(r"Table ([A-Z]{4})", 60)).group(1)
        for name in ("bob", "cy"):
            term = await log_in(name, "table-pw")
            await term.wait_for("Your tables", 60)
            term.press("j")
            await term.wait_for("Join a table", 60)
            term.press(code, "enter")
            if name == "bob":  # the table waits for Cy: Bob goes home and logs out
                await term.wait_for("Seat 2: bob", 60)
                term.press("escape")
                await term.wait_for("Your tables", 60)
                await quit_app(term, at_table=False)
            else:
                await term.wait_for("Railways of the World · turn 1", 60)
                await quit_app(term)
        await ann.wait_for("Railways of the World · turn 1", 60)
        await quit_app(ann)
        assert told(out) == []  # the first move was Ann's while she was looking at it

        for move in range(MOVES):
            name = to_move(data, code)
            term = await log_in(name, "table-pw")
            await term.wait_for(f"Your move at {code}", 60)
            await term.wait_for(f"{code}  Railways of the World · your move", 30)
            term.press("enter")
            await term.wait_for(r"p Pass", 60)
            term.press("p")
            await until(lambda who=name: to_move(data, code) != who, f"{name}'s pass was not kept", 60)
            await quit_app(term)
            deadline = asyncio.get_running_loop().time() + 60
            while len(told(out)) < move + 1 and asyncio.get_running_loop().time() < deadline:
                await asyncio.sleep(0.5)
            now = told(out)
            assert len(now) == move + 1, now  # one notification for the move just awaited
            last = now[-1]
            assert last["kind"] == "your_move" and last["table"] == code
            assert last["player"] == to_move(data, code) != name
            assert f"{name} pass" in str(last["text"])
            assert str(last["join"]).startswith(f"ssh -p {host.port} {last['player']}@")

        ids = [t["id"] for t in told(out)]
        assert len(ids) == len(set(ids)) == MOVES

    try:
        asyncio.run(asyncio.wait_for(scenario(), LIMIT))
    finally:
        host.kill()
        for line in host.log_lines().splitlines():
            assert "Traceback" not in line
