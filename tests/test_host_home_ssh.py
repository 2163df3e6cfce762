"""The home screen over real SSH: a player who logs in sees where it is their move."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from host_terminal import HostProcess, OpenSshTerminal, Terminal

from railgames.net.pace import Pace
from railgames.net.service import TableService
from railgames.net.tables import Login, Member

PASSWORD = "table-pw"
LIMIT = 240


def turn_based_table_waiting_for(data_dir: Path, name: str) -> tuple[str, int]:
    """A turn-based Railways of the World table of ann, bob and cat, kept in the host's
    folder, played by the others until it is ``name``'s move; its code and how many
    actions the others played meanwhile."""
    service = TableService(data_dir / "tables", bot_delay=0, bot_workers=0)
    people = {n: Member(login=Login(name=n), send=lambda m: None) for n in ("ann", "bob", "cat")}
    table = service.create(people["ann"], "railways-of-the-world", 3, 3,
                           pace=Pace(mode="turn", move_hours=72, on_timeout="remind"))
    for n in ("bob", "cat"):
        service.join(people[n], table.code)
    for member in people.values():
        service.leave(member)  # everyone has looked, and gone home
    assert table.game is not None
    seat = table.seat_of(name)
    played = 0
    for _ in range(100):
        if table.to_move() == seat and played:
            break
        mover = people[table.seats[table.to_move()].name]  # type: ignore[index]
        service.join(mover, table.code)
        service.act(mover, table.game.legal_actions()[0].model_dump(mode="json"))
        service.leave(mover)
        played += 1
    assert table.to_move() == seat
    service.close()
    return table.code, played


@pytest.mark.skipif(not OpenSshTerminal.available(), reason="needs ssh and tmux")
def test_a_player_logging_in_sees_their_move_on_the_home_screen(tmp_path: Path) -> None:
    data = tmp_path / "data"
    code, played = turn_based_table_waiting_for(data, "bob")
    host = HostProcess(data).start()

    async def scenario() -> None:
        bob = OpenSshTerminal(80, 24, prefix="home-test")
        cat = Terminal()
        try:
            await bob.open(host.port, "bob", PASSWORD)
            await bob.wait_for(f"Your move at {code}", 10)  # the greeting, said once
            await bob.wait_for(f"{code}  Railways of the World · your move", 60)
            await bob.wait_for(f"● {played} new", 10)
            await bob.wait_for(r"2 d 23 h left", 10)
            await cat.open(host.port, "cat", PASSWORD)
            await cat.wait_for(f"{code}  Railways of the World · bob to move, since", 60)
            bob.press("enter")  # their table, first in the list
            await bob.wait_for("Railways of the World · turn", 60)
            await cat.wait_for("here: bob", 30)  # the host tells cat's home screen
        finally:
            await bob.close()
            await cat.close()

    try:
        asyncio.run(asyncio.wait_for(scenario(), LIMIT))
    finally:
        host.kill()
