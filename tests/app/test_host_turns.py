"""Hosting a table from a host's terminal: live or turn-based, private, who may talk."""

from __future__ import annotations

from typing import Any

import pytest

from tests.app.driving import run_async, screen_text


class HostLink:
    """The app's side of the host's tables: keeps each request, answers as a host would."""

    def __init__(self) -> None:
        self.name = "ann"
        self.listener: Any = None
        self.last_table: dict[str, Any] | None = None
        self.choose = False
        self.sent: list[dict[str, Any]] = []
        self.listed: list[dict[str, Any]] = []

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        self.sent.append(message)
        if message["op"] == "create":
            return {"ok": True, "code": "ABCD"}
        if message["op"] == "list":
            return {"ok": True, "tables": self.listed}
        return {"ok": True, "tables": []}

    def forget(self, code: str) -> None:
        pass

    def created(self) -> list[dict[str, Any]]:
        return [m for m in self.sent if m["op"] == "create"]


async def choose(pilot: Any, select_id: str, downs: int) -> None:
    """Open the list ``select_id`` from the keyboard and take the choice ``downs`` below."""
    pilot.app.screen.query_one(f"#{select_id}").focus()
    await pilot.pause()
    await pilot.press("enter", *["down"] * downs, "enter")
    await pilot.pause()


async def open_host_screen(pilot: Any) -> Any:
    await pilot.pause()
    await pilot.press("h")
    await pilot.pause()
    assert type(pilot.app.screen).__name__ == "HostTableScreen"
    return pilot.app.screen


@run_async
async def test_a_turn_based_private_table_is_asked_for_from_the_keyboard() -> None:
    from railgames.net import app as net_app

    link = HostLink()
    app = net_app.NetApp(link)  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_host_screen(pilot)
        assert not screen.query_one("#hours-row").display  # live: no time per move
        assert not screen.query_one("#invited-row").display
        await choose(pilot, "pace", 1)  # turn-based
        assert screen.query_one("#hours-row").display and screen.query_one("#timeout-row").display
        await choose(pilot, "hours", 1)  # 72 h
        await choose(pilot, "timeout", 2)  # remind them only
        await choose(pilot, "private", 1)
        assert screen.query_one("#invited-row").display
        screen.query_one("#invited").focus()
        await pilot.press(*"bob, cy,, Bob")
        await choose(pilot, "talk", 1)  # its players only
        await choose(pilot, "hints", 1)  # off: a serious game
        await pilot.press("ctrl+s")
        await pilot.pause()
    [request] = link.created()
    assert request["pace"] == {"mode": "turn", "move_hours": 72, "on_timeout": "remind"}
    assert (request["private"], request["invited"], request["talk"], request["hints"]) == (
        True, ["bob", "cy"], "players", False)


@run_async
async def test_a_live_table_is_the_default_and_no_limit_asks_nothing_of_a_timeout() -> None:
    from railgames.net import app as net_app

    link = HostLink()
    app = net_app.NetApp(link)  # type: ignore[arg-type]
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_host_screen(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert link.created()[-1]["pace"] == {"mode": "live"}
        assert link.created()[-1]["private"] is False and link.created()[-1]["invited"] == []
        assert link.created()[-1]["hints"] is True  # hints are allowed unless turned off
        await pilot.press("escape")  # the waiting screen: back to the launcher
        await pilot.pause()
        screen = await open_host_screen(pilot)
        await choose(pilot, "pace", 1)
        await choose(pilot, "hours", 2)  # no time limit
        assert not screen.query_one("#timeout-row").display
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert link.created()[-1]["pace"]["move_hours"] is None


@pytest.mark.parametrize("typed", ["bob, b@d", "x" * 30, ",".join(f"p{i}" for i in range(40))])
@run_async
async def test_names_that_cannot_be_invited_are_refused_in_one_line(typed: str) -> None:
    from railgames.net import app as net_app

    link = HostLink()
    app = net_app.NetApp(link)  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_host_screen(pilot)
        await choose(pilot, "private", 1)
        screen.query_one("#invited").value = typed
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.pause()
        shown = screen.query_one("#setup-error")
        error = str(shown.render())
        assert type(app.screen).__name__ == "HostTableScreen"
        assert screen.query_one("#setup").region.contains_region(shown.region)  # in sight
    assert link.created() == []
    assert error and "\n" not in error.strip()
    assert error.startswith("cannot invite") or "at most" in error


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@run_async
async def test_every_choice_can_be_reached_and_seen(size: tuple[int, int]) -> None:
    from textual.widgets import Button, Input, Select

    from railgames.net import app as net_app

    app = net_app.NetApp(HostLink())  # type: ignore[arg-type]
    async with app.run_test(size=size) as pilot:
        screen = await open_host_screen(pilot)
        await choose(pilot, "pace", 1)
        await choose(pilot, "private", 1)
        wanted = {w.id for w in screen.query("Select, Input, Button")
                  if isinstance(w, Select | Input | Button)}
        seen: set[str | None] = set()
        for _ in range(len(wanted) + 2):
            await pilot.press("tab")
            await pilot.pause()
            focused = screen.focused
            if focused is None or focused.id not in wanted:
                continue
            seen.add(focused.id)
            # Each field, once reached, is on the screen whole (the form scrolls to it).
            assert screen.query_one("#setup").region.contains_region(focused.region), focused.id
        assert seen == wanted
        await pilot.press("f1")
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"
        text = screen_text(app)
        assert "Turn-based tables wait for their players" in text
        assert "**" not in text and "[b]" not in text  # said, not its markup


def test_skipping_is_offered_only_for_games_whose_rules_have_a_pass(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from railgames.games import ruleset_class
    from railgames.net.app import HostTableScreen

    assert [v for _, v in HostTableScreen._timeouts("paris-connection")] == [
        "bot", "skip", "remind"]
    monkeypatch.setattr(ruleset_class("paris-connection"), "passes", ())
    assert [v for _, v in HostTableScreen._timeouts("paris-connection")] == ["bot", "remind"]


@run_async
async def test_the_join_screen_says_each_tables_pace() -> None:
    from railgames.net import app as net_app

    link = HostLink()
    seats = [{"name": "bob", "kind": "human", "bot_taken": False, "connected": False},
             {"name": "", "kind": "human", "bot_taken": False, "connected": False}]
    link.listed = [
        {"code": "TURN", "game": "paris-connection", "title": "Paris Connection",
         "status": "waiting", "seats": seats, "free": 1, "watching": 0,
         "pace": "turn-based, 24 h a move (then a bot moves)", "private": True},
        {"code": "LIVE", "game": "paris-connection", "title": "Paris Connection",
         "status": "waiting", "seats": seats, "free": 1, "watching": 0, "pace": "live",
         "private": False}]
    app = net_app.NetApp(link)  # type: ignore[arg-type]
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("j")
        await pilot.pause()
        text = screen_text(app)
    assert "TURN  Paris Connection · waiting for players · turn-based, 24 h a move (then a bot " \
           "moves) · private" in text
    assert "LIVE  Paris Connection · waiting for players · live · bob (away), (free)" in text
