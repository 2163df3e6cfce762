"""The archive and the player's page on a host's terminal, at 80×24 and 120×40.

The app talks to a real table socket (a ``TableServer`` on a loop of its own, as the
host runs it) through the link the host's app processes use; the finished games
are played out beforehand by random moves, without any terminal.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from railgames.net.pace import ManualClock
from railgames.net.remote import RemoteLink
from railgames.net.service import TableService
from railgames.net.tables import HostTable, Login
from railgames.net.tableserver import TableServer
from tests.app.driving import run_async, screen_text
from tests.test_after import finished, quick_service

SIZES = [(80, 24), (120, 40)]


class Host:
    """A table socket on a thread of its own, with finished games already on it."""

    def __init__(self, data: Path) -> None:
        self.service = TableService(data / "tables", bot_delay=0, bot_workers=0,
                                    clock=ManualClock())
        self.folder = Path(tempfile.mkdtemp(prefix="rg-after-"))  # a socket's path is short
        self.server = TableServer(self.service, self.folder / "tables.sock")
        (data / "host").mkdir(parents=True)
        self.server.keep_players(data / "host")
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.data = data
        self.links: list[RemoteLink] = []

    def start(self) -> Host:
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self.server.start(), self.loop).result(30)
        return self

    def link(self, name: str) -> RemoteLink:
        token = self.server.issue_token(Login(name=name, peer="test"))
        link = RemoteLink(str(self.server.socket_path), token)
        self.links.append(link)
        return link

    def stop(self) -> None:
        for link in self.links:
            link.listener = None  # its app has ended
            link.close()

        async def closed() -> None:
            for _ in range(200):  # each connection's task ends once its link has gone
                if not self.server.connections:
                    break
                await asyncio.sleep(0.02)
            await self.server.close()

        asyncio.run_coroutine_threadsafe(closed(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)
        self.service.close()
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """The host's tables with the finished games, played once for every test here."""
    data = tmp_path_factory.mktemp("after") / "host-data"
    service = quick_service(data / "tables")
    games = [finished(service, ["ann", "bob", "cat"], seed=1).code,
             finished(service, ["bob", "ann"], bots=1, seed=2).code]
    finished(service, ["bob", "cat", "dan"], seed=3)  # not ann's
    service.close()
    return data, games


@pytest.fixture
def host(played: tuple[Path, list[str]],
         tmp_path: Path) -> Iterator[tuple[Host, list[HostTable]]]:
    data = tmp_path / "host-data"
    shutil.copytree(played[0], data)
    service_host = Host(data)
    service_host.service.load()
    yield service_host.start(), [service_host.service.tables[code] for code in played[1]]
    service_host.stop()


async def until(pilot: Any, app: Any, text: str, seconds: float = 20) -> str:
    for _ in range(int(seconds / 0.05)):
        shown = screen_text(app)
        if text in shown:
            return shown
        await pilot.pause(0.05)
    raise AssertionError(f"{text!r} not shown:\n{screen_text(app)}")


def app_for(link: RemoteLink) -> Any:
    from railgames.net.app import NetApp

    return NetApp(link)


@pytest.mark.parametrize("size", SIZES)
def test_the_archive_lists_opens_and_steps_through_a_finished_game(
        host: tuple[Host, list[HostTable]], size: tuple[int, int]) -> None:
    from railgames.app.screens.game_over import GameOverScreen
    from railgames.app.screens.viewer import ViewerScreen
    from railgames.net.after_ui import ArchiveScreen

    server, games = host
    link = server.link("ann")

    @run_async
    async def scenario() -> None:
        app = app_for(link)
        async with app.run_test(size=size) as pilot:
            await until(pilot, app, "Host a table")
            archive = ArchiveScreen()
            app.push_screen(archive)
            shown = await until(pilot, app, games[0].code)
            assert games[1].code in shown
            newest, older = (shown.index(games[1].code), shown.index(games[0].code))
            assert newest < older
            lines = shown.splitlines()
            assert len(lines) <= size[1] and all(len(line) <= size[0] for line in lines)
            for key in ("Back", "Export", "Play again"):
                assert key in lines[-1]
            # The chosen game's players, places and scores.
            result = games[1].game.result()  # type: ignore[union-attr]
            for name, score in result.scores.items():
                assert f"{name}{' (bot)' if name.endswith('-bot') else ''} {score}" in shown
            await pilot.press("down")  # the older game: Ann, Bob and Cat
            await until(pilot, app, f"Table {games[0].code}")
            await pilot.press("enter")
            for _ in range(100):
                if isinstance(app.screen, GameOverScreen):
                    break
                await pilot.pause(0.05)
            assert isinstance(app.screen, GameOverScreen)
            await until(pilot, app, "Game over")
            await pilot.press("v")
            for _ in range(100):
                if isinstance(app.screen, ViewerScreen):
                    break
                await pilot.pause(0.05)
            viewer = app.screen
            assert isinstance(viewer, ViewerScreen)
            assert viewer.recording.length == games[0].played()
            await pilot.press("escape")  # the viewer, back to the scores
            await pilot.pause(0.2)
            assert isinstance(app.screen, GameOverScreen)
            await pilot.press("escape")  # the scores, back to the archive
            await pilot.pause(0.2)
            assert app.screen is archive
            assert app.table_code is None
            await pilot.press("question_mark")
            await until(pilot, app, "Your finished games")
            await pilot.press("escape")
            await pilot.pause(0.1)
            assert app.screen is archive

    scenario()
    assert server.service.tables[games[0].code].members == []  # left it again


def test_export_from_the_archive_says_where_in_one_line(
        host: tuple[Host, list[HostTable]]) -> None:
    from railgames.net.after_ui import ArchiveScreen

    server, games = host
    link = server.link("ann")

    @run_async
    async def scenario() -> None:
        app = app_for(link)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, app, "Host a table")
            app.push_screen(ArchiveScreen())
            await until(pilot, app, games[0].code)
            await pilot.press("e")
            shown = await until(pilot, app, "In your saves as")
            assert f"{games[1].game_id}-{games[1].code}.json" in shown

    scenario()
    saves = server.data / "players" / "ann" / "saves"
    assert [p.name for p in saves.glob("*.json")] == [f"{games[1].game_id}-{games[1].code}.json"]


def test_play_again_from_the_archive_goes_to_the_new_tables_waiting_screen(
        host: tuple[Host, list[HostTable]]) -> None:
    from railgames.net.after_ui import ArchiveScreen
    from railgames.net.app import WaitingScreen

    server, games = host
    link = server.link("ann")

    @run_async
    async def scenario() -> None:
        app = app_for(link)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, app, "Host a table")
            app.push_screen(ArchiveScreen())
            await until(pilot, app, games[0].code)
            await pilot.press("r")
            for _ in range(100):
                if isinstance(app.screen, WaitingScreen):
                    break
                await pilot.pause(0.05)
            assert isinstance(app.screen, WaitingScreen)
            again = [t for t in server.service.tables.values() if t.again_of == games[1].code]
            assert len(again) == 1 and app.screen.code == again[0].code
            await until(pilot, app, f"Table {again[0].code}")

    scenario()


@pytest.mark.parametrize("size", SIZES)
def test_the_players_page_and_another_players(host: tuple[Host, list[HostTable]],
                                              size: tuple[int, int]) -> None:
    from railgames.net.after_ui import PlayerScreen

    server, games = host
    link = server.link("ann")

    @run_async
    async def scenario() -> None:
        app = app_for(link)
        async with app.run_test(size=size) as pilot:
            await until(pilot, app, "Host a table")
            page = PlayerScreen()
            app.push_screen(page)
            shown = await until(pilot, app, "Your page")
            assert "Steel Driver" in shown and "from 1 game between people" in shown
            lines = shown.splitlines()
            assert len(lines) <= size[1] and all(len(line) <= size[0] for line in lines)
            row = next(line for line in lines if "Steel Driver" in line).split()
            won = sum(1 for t in games if "ann" in t.game.result().winners)  # type: ignore[union-attr]
            assert row[2:4] == ["2", str(won)]
            await pilot.press("n")
            await pilot.press(*"dan", "enter")
            shown = await until(pilot, app, "dan's page")
            assert "Steel Driver" in shown
            await pilot.press("escape")  # back to her own page
            await until(pilot, app, "Your page")
            await pilot.press("question_mark")
            await until(pilot, app, "everyone starts at 1000")
            await pilot.press("escape")
            await pilot.pause(0.1)
            await pilot.press("escape")
            await pilot.pause(0.1)
            assert app.screen is not page

    scenario()


def test_review_of_a_hosts_finished_game_and_try_again_on_this_terminal(
        host: tuple[Host, list[HostTable]]) -> None:
    """R reviews the player's own seat (the record came with the game's end); t leaves the
    table and starts a game on this terminal, in the player's own saves, against bots of
    the table's kind.

    The review itself is worked out here, of the first decisions only, and kept on the
    screen as R keeps one it has worked out: its run in the worker process is the same
    for every table, and tests/app/test_review_app.py runs it."""
    from railgames.app.saves import saves_dir
    from railgames.app.screens.game import GameScreen
    from railgames.app.screens.game_over import GameOverScreen
    from railgames.app.screens.review import ReviewScreen
    from railgames.core.review import Review, decision_positions, review_positions
    from railgames.net.after_ui import ArchiveScreen
    from railgames.tables.local import Session

    server, games = host
    link = server.link("ann")
    table = games[0]  # Ann, Bob and Cat

    async def wait(pilot: Any, holds: Any) -> None:
        for _ in range(2400):  # two minutes at most: a bound, not a measure
            if holds():
                return
            await pilot.pause(0.05)
        raise AssertionError(f"waited in vain on {type(pilot.app.screen).__name__}")

    @run_async
    async def scenario() -> None:
        app = app_for(link)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, app, "Host a table")
            app.push_screen(ArchiveScreen())
            await until(pilot, app, table.code)
            await pilot.press("down")  # the older game: Ann, Bob and Cat
            await until(pilot, app, f"Table {table.code}")
            await pilot.press("enter")
            await wait(pilot, lambda: isinstance(app.screen, GameOverScreen))
            over = app.screen
            assert isinstance(over, GameOverScreen)
            seat = over.session.seat
            assert seat is not None and over.reviewable() == [seat]
            record = over.session.record
            assert record is not None and record.actions == table.game.record.actions  # type: ignore[union-attr]
            ruleset = over.session.ruleset
            first = decision_positions(ruleset, record, seat)[:8]
            over._reviews[seat] = Review(seat, tuple(review_positions(ruleset, record, first,
                                                                      iterations=1, samples=1)))
            await pilot.press("R")
            await wait(pilot, lambda: isinstance(app.screen, ReviewScreen))
            review = app.screen
            assert isinstance(review, ReviewScreen) and review.review.seat == seat
            assert review.costly and review.recording.position == review.costly[0].position
            await pilot.press("t")
            await wait(pilot, lambda: isinstance(app.screen, GameScreen))
            session = app.screen.session  # type: ignore[attr-defined]
            assert isinstance(session, Session) and app.table_code is None
            assert session.record.actions == table.game.record.actions[  # type: ignore[union-attr]
                :review.costly[0].position]
            assert [p.kind for p in session.players] == [
                "human" if i == seat else table.bot_kind for i in range(len(session.players))]
            assert list(saves_dir().glob("*.json"))

    scenario()
