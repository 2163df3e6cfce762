"""The Settings screen on a host's terminal: the address, and each table's mute and bell,
asked of the host's own requests (through a link that calls them in-process)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from railgames.core.errors import IllegalAction, RailgamesError
from railgames.net import ops
from railgames.net.pace import ManualClock, Pace
from railgames.net.profiles import Profiles
from railgames.net.service import TableService
from railgames.net.tables import Login, Member
from railgames.net.tableserver import TableServer
from tests.app.driving import run_async, screen_text


class SettingsLink:
    """The app's side of the host: the settings requests answered by the host's handlers."""

    def __init__(self, root: Path) -> None:
        self.name = "ann"
        self.listener: Any = None
        self.last_table: dict[str, Any] | None = None
        self.choose = False
        self.service = TableService(root / "tables", bot_delay=0, bot_workers=0,
                                    clock=ManualClock())
        self.server = TableServer(self.service, root / "sock")
        self.server.profiles = Profiles(root / "profiles")
        self.member = Member(login=Login(name="ann"), send=lambda message: None)
        self.asked: list[dict[str, Any]] = []

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        self.asked.append(message)
        if message["op"] == "mine":
            return {"ok": True, "tables": []}
        try:
            answer = ops.OPS[message["op"]](self.server, self.member, message)
        except RailgamesError as exc:
            raise IllegalAction(exc.reason) from None
        assert isinstance(answer, dict)
        return answer

    def forget(self, code: str) -> None:
        pass

    def table(self, game: str = "paris-connection") -> str:
        others = [Member(login=Login(name=n), send=lambda message: None) for n in ("bob", "cy")]
        table = self.service.create(self.member, game, seats=3, humans=3,
                                    pace=Pace(mode="turn", move_hours=24))
        for m in others:
            self.service.join(m, table.code)
        return table.code


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@run_async
async def test_settings_show_and_change_the_address_mute_and_bell(
        tmp_path: Path, size: tuple[int, int]) -> None:
    from railgames.net.app import NetApp
    from railgames.net.settings_ui import SettingsHelp, SettingsScreen

    link = SettingsLink(tmp_path)
    first, second = link.table(), link.table()
    app = NetApp(link)  # type: ignore[arg-type]
    async with app.run_test(size=size) as pilot:
        app.push_screen(SettingsScreen())
        await pilot.pause()
        text = screen_text(app)
        assert "Settings" in text and "Where the host tells you" in text
        for code in (first, second):
            assert f"{code}  Paris Connection · playing · notifications on · bell on" in text
        assert "Back" in text and "Mute" in text  # the footer
        profiles = link.server.profiles

        await pilot.press("m")  # the first table, highlighted
        await pilot.pause()
        assert profiles.get("ann").muted == [first]
        assert f"{first}  Paris Connection · playing · muted · bell on" in screen_text(app)
        assert f"{first}: no notifications from this table." in screen_text(app)
        await pilot.press("down", "b")
        await pilot.pause()
        assert profiles.get("ann").quiet == [second]
        assert "bell off" in screen_text(app)
        await pilot.press("up", "m")
        await pilot.pause()
        assert profiles.get("ann").muted == []

        await pilot.press("tab")  # to the address; letters there are typed, not keys
        await pilot.press(*"mb@x.org", "enter")
        await pilot.pause()
        assert profiles.get("ann").notify_to == "mb@x.org"
        assert profiles.get("ann").muted == [] and profiles.get("ann").quiet == [second]
        assert "You are told at mb@x.org." in screen_text(app)

        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, SettingsHelp)
        assert "notifications from this table off" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, SettingsScreen)
    link.service.close()


@run_async
async def test_a_refused_address_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    from railgames.net.app import NetApp
    from railgames.net.settings_ui import SettingsScreen

    link = SettingsLink(tmp_path)
    app = NetApp(link)  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(SettingsScreen())
        await pilot.pause()
        assert "You sit at no table on this host yet." in screen_text(app)
        await pilot.press(*"-oX=y", "enter")  # the address has the keys: no table to pick
        await pilot.pause()
        assert "An address does not start with '-'" in screen_text(app)
        assert link.server.profiles.get("ann").notify_to is None
        await pilot.press("question_mark")  # typed into the address, not help
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        await pilot.press("tab", "m")  # the (empty) list of tables
        await pilot.pause()
        said = str(app.screen.query_one("#setup-error").render())
        assert said == "You sit at no table on this host yet."
        assert link.server.profiles.get("ann").muted == []
    link.service.close()
