"""The launcher on a host's terminal keeps its list of the player's tables up to date."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.app.driving import run_async


class TablesLink:
    """The app's side of the host's tables: answers "mine" with what the test sets."""

    def __init__(self) -> None:
        self.name = "bob"
        self.listener: Any = None
        self.last_table: dict[str, Any] | None = None
        self.choose = False
        self.tables: list[dict[str, Any]] = []

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "tables": list(self.tables) if message["op"] == "mine" else []}

    def forget(self, code: str) -> None:
        pass


def subtitle(app: Any) -> str:
    return str(app.screen.query_one("#subtitle").render())


@run_async
async def test_a_table_that_ends_elsewhere_leaves_the_launcher_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from railgames.net import app as net_app

    monkeypatch.setattr(net_app, "MINE_EVERY", 0.2)
    link = TablesLink()
    link.tables = [{"code": "HWNB", "title": "Paris Connection", "status": "playing",
                    "seat": 1, "your_move": False, "to_move": "cat"}]
    app = net_app.NetApp(link)  # type: ignore[arg-type]
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(50):
            await pilot.pause(0.1)
            if "cat to move" in subtitle(app):
                break
        assert "HWNB (Paris Connection): cat to move." in subtitle(app)
        link.tables = []  # cat's move ended the game at another terminal
        for _ in range(50):
            await asyncio.sleep(0.1)
            if "cat to move" not in subtitle(app):
                break
        assert "You are bob: host a table for friends, or join one." in subtitle(app)
