"""The first screen on a host's terminal: the player's tables (the home screen), the ways
from it to everything else, and the notices from the other tables."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.app.driving import run_async, screen_text

NOW = 1_800_000_000.0


def row(code: str, **fields: Any) -> dict[str, Any]:
    """One table as the host's "home" answer gives it."""
    base = {"code": code, "game": "railways-of-the-world", "title": "Railways of the World",
            "status": "playing", "pace": "turn-based, 24 h a move (then a reminder)",
            "turn_based": True, "private": False, "seat": 0, "your_move": False,
            "to_move": "bo", "since": NOW - 2 * 86400, "time_left": "", "unseen": 0,
            "news": "", "here": [], "watching": [], "muted": False, "bell": True}
    return {**base, **fields}


class TablesLink:
    """The app's side of the host's tables: answers "home" with what the test sets, and
    refuses requests this host does not know (as a host without that part would)."""

    def __init__(self, name: str = "bob") -> None:
        self.name = name
        self.listener: Any = None
        self.last_table: dict[str, Any] | None = None
        self.choose = False
        self.tables: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []
        self.known = {"home", "join", "list", "leave", "create"}
        self.logins: list[tuple[str, str]] = []

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        from railgames.core.errors import IllegalAction

        self.sent.append(message)
        if message["op"] not in self.known:
            raise IllegalAction(f"unknown request '{message['op']}'")
        if message["op"] == "home":
            return {"ok": True, "tables": list(self.tables), "now": NOW}
        if message["op"] == "archive":
            return {"ok": True, "games": []}
        if message["op"] == "player":
            return {"ok": True, "name": self.name, "games": []}
        return {"ok": True, "tables": []}

    def login(self, name: str, password: str, peer: str = "") -> None:
        self.logins.append((name, password))
        self.name = name

    def forget(self, code: str) -> None:
        pass


# As the host lists them: their move first.
TWO = [row("RFXP", your_move=True, to_move="bob", since=NOW - 3 * 3600,
           time_left="21 h 0 min", unseen=3, news="bo and cy moved", here=["bo", "cy"]),
       row("HWNB", title="Paris Connection", to_move="cat", since=NOW - 3 * 3600,
           here=["cat"], watching=["dee"])]


async def shown(pilot: Any, app: Any, text: str) -> str:
    for _ in range(50):
        await pilot.pause(0.05)
        seen = screen_text(app)
        if text in seen:
            return seen
    raise AssertionError(f"{text!r} never shown:\n{screen_text(app)}")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@run_async
async def test_the_home_screen_lists_the_players_tables_and_enter_opens_one(
        size: tuple[int, int]) -> None:
    from railgames.net.app import NetApp, WaitingScreen
    from railgames.net.home import HomeScreen

    link = TablesLink()
    link.tables = TWO
    app = NetApp(link)  # type: ignore[arg-type]
    async with app.run_test(size=size) as pilot:
        text = await shown(pilot, app, "RFXP")
        assert isinstance(app.screen, HomeScreen)
        assert "your move, 3 h" in text and "21 h 0 min left" in text and "● 3 new" in text
        assert "bo and cy moved" in text and "here: bo, cy" in text
        assert "cat to move, since 3 h" in text and "watching: dee" in text
        assert "Host a table" in text and "Join a table" in text
        assert "your move at 1 table" in text
        width, _ = size
        assert all(len(line) <= width for line in text.splitlines())
        # The greeting says where it is their move (RFXP, listed as the host put it).
        assert any("Your move at RFXP" in str(n.message) for n in app._notifications)
        await pilot.press("down", "enter")  # the second table: HWNB
        await pilot.pause()
        assert {"op": "join", "code": "HWNB"} in link.sent
        assert isinstance(app.screen, WaitingScreen) and app.table_code == "HWNB"
        await pilot.press("escape")  # leaves the table: back home
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert {"op": "leave"} in link.sent


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@run_async
async def test_with_no_tables_the_home_screen_says_what_to_do(size: tuple[int, int]) -> None:
    from railgames.net.app import NetApp

    app = NetApp(TablesLink())  # type: ignore[arg-type]
    async with app.run_test(size=size) as pilot:
        text = await shown(pilot, app, "no tables on this host yet")
        flat = " ".join(text.split())
        assert "Host a table (h)" in flat and "Join a table (j)" in flat
        assert not app._notifications


@run_async
async def test_the_home_keys_reach_the_other_screens() -> None:
    from railgames.net.after_ui import ArchiveScreen, PlayerScreen
    from railgames.net.app import HostTableScreen, JoinTableScreen, NetApp, NetLauncherScreen
    from railgames.net.home import HomeScreen
    from railgames.net.settings_ui import SettingsScreen

    link = TablesLink()
    link.tables = TWO
    link.known |= {"archive", "player", "settings", "mute", "bell"}
    app = NetApp(link)  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        await shown(pilot, app, "RFXP")
        for key, screen in (("h", HostTableScreen), ("j", JoinTableScreen),
                            ("g", NetLauncherScreen), ("a", ArchiveScreen),
                            ("p", PlayerScreen), ("s", SettingsScreen)):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, screen), key
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, HomeScreen), key
        # m and b ask the host for the highlighted table, and say what they did.
        app.clear_notifications()
        await pilot.press("m")
        await pilot.pause()
        assert link.sent[-2] == {"op": "mute", "code": "RFXP", "on": True}
        assert "RFXP muted: no notifications from it." in [
            str(n.message) for n in app._notifications]
        await pilot.press("b")
        await pilot.pause()
        assert link.sent[-2] == {"op": "bell", "code": "RFXP", "on": False}
        assert link.sent[-1] == {"op": "home"}  # and looks again
        # A host that refuses says why, in one line.
        link.known -= {"mute"}
        app.clear_notifications()
        await pilot.press("m")
        await pilot.pause()
        assert [str(n.message) for n in app._notifications] == ["unknown request 'mute'"]
        await pilot.press("question_mark")
        await pilot.pause()
        assert "m mute the table" in " ".join(screen_text(app).split())


@run_async
async def test_a_table_that_ends_elsewhere_leaves_the_home_screen_when_the_host_says(
        ) -> None:
    from railgames.net.app import NetApp

    link = TablesLink()
    link.tables = TWO
    app = NetApp(link)  # type: ignore[arg-type]
    async with app.run_test(size=(100, 30)) as pilot:
        await shown(pilot, app, "HWNB")
        link.tables = TWO[:1]  # cat's move ended the game at HWNB
        app._from_host({"ev": "home"})
        for _ in range(50):
            await asyncio.sleep(0.05)
            if "HWNB" not in screen_text(app):
                break
        assert "HWNB" not in screen_text(app) and "RFXP" in screen_text(app)


@run_async
async def test_a_move_elsewhere_shows_a_notice_and_rings_unless_quiet(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from railgames.net.app import NetApp

    link = TablesLink()
    app = NetApp(link)  # type: ignore[arg-type]
    bells: list[int] = []
    monkeypatch.setattr(app, "bell", lambda: bells.append(1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        notice = {"ev": "notice", "kind": "your_move", "code": "RFXP",
                  "title": "Railways of the World",
                  "text": "Your move at RFXP (Railways of the World)", "bell": True}
        app._from_host(notice)
        await pilot.pause(0.1)
        assert bells == [1]
        assert [str(n.message) for n in app._notifications] == [
            "Your move at RFXP (Railways of the World)"]
        app._from_host({**notice, "bell": False})  # the table's bell is off
        await pilot.pause(0.1)
        assert bells == [1] and len(app._notifications) == 2
        app._from_host({"ev": "notice", "kind": "over", "code": "HWNB", "title": "x",
                        "text": "The game at HWNB is over\x1b[2J\x07"})
        await pilot.pause(0.1)
        assert bells == [1]
        last = str(list(app._notifications)[-1].message)
        assert last.startswith("The game at HWNB is over") and "\x1b" not in last
        # At that table already: the table itself shows it is their move.
        app.table_code = "RFXP"
        app._from_host(notice)
        await pilot.pause(0.1)
        assert bells == [1] and len(app._notifications) == 3


@run_async
async def test_a_browser_player_lands_on_the_same_home_screen() -> None:
    from textual.widgets import Input

    from railgames.net.app import NetApp, WebLoginScreen
    from railgames.net.home import HomeScreen

    link = TablesLink(name="")
    link.tables = TWO
    app = NetApp(link)  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, WebLoginScreen)
        assert {"op": "home"} not in link.sent  # nobody to ask for yet
        app.screen.query_one("#name", Input).value = "bob"
        app.screen.query_one("#password", Input).value = "table-pw"
        await pilot.press("tab", "enter")
        text = await shown(pilot, app, "RFXP")
        assert isinstance(app.screen, HomeScreen) and link.logins == [("bob", "table-pw")]
        assert "You are bob" in text and "your move, 3 h" in text


def test_an_invitation_reads_as_one_and_says_how_to_take_it() -> None:
    from railgames.net.home import table_lines

    text = table_lines(row("UBMA", title="Paris Connection", invited=True, by="ann",
                           status="waiting", to_move=None, private=True), NOW).plain
    assert "UBMA  Paris Connection · ann invites you: Enter sits you down" in text
    assert "private" in text
