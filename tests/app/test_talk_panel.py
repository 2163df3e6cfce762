"""The chat panel of a game at a host's table, driven from the keyboard against a running
table socket (in a thread of its own, as the host's loop is another process's): ann plays
in the app, bob is at the same table through a link of his own."""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from railgames.net import chat
from railgames.net.remote import RemoteLink
from railgames.net.service import TableService
from railgames.net.tables import Login
from railgames.net.tableserver import TableServer
from tests.app.driving import run_async, screen_text


class HostThread:
    """A table socket served by a loop in another thread."""

    def __init__(self, root: Path) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.service = TableService(root / "tables", bot_delay=0, bot_workers=0)
        self.server = TableServer(self.service, root / "host" / "tables.sock")
        asyncio.run_coroutine_threadsafe(self.server.start(), self.loop).result(30)
        self.links: list[RemoteLink] = []

    def link(self, name: str) -> RemoteLink:
        token = self.server.issue_token(Login(name=name))
        link = RemoteLink(str(self.server.socket_path), token)
        self.links.append(link)
        return link

    def close(self) -> None:
        for link in self.links:
            link.listener = None  # the app that listened has ended
            link.close()
        asyncio.run_coroutine_threadsafe(self.server.close(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)
        self.service.close()


@pytest.fixture
def host(tmp_path: Path) -> Iterator[HostThread]:
    made = HostThread(tmp_path)
    yield made
    made.close()


def table_of_two(host: HostThread, watcher: bool = False) -> tuple[RemoteLink, RemoteLink, str]:
    ann, bob = host.link("ann"), host.link("bob")
    code = str(ann.request({"op": "create", "game": "paris-connection", "seats": 3,
                            "humans": 2})["code"])
    bob.request({"op": "join", "code": code})
    if watcher:
        host.link("cat").request({"op": "join", "code": code, "watch": True})
    deadline = time.monotonic() + 30
    while not (ann.last_table and "view" in ann.last_table):
        assert time.monotonic() < deadline, "the game did not start"
        time.sleep(0.02)
    return ann, bob, code


async def until(pilot: Any, check: Callable[[], bool], what: str) -> None:
    for _ in range(300):
        if check():
            return
        await pilot.pause(0.05)
    raise AssertionError(what)


def shown(app: Any) -> str:
    """What the chat panel shows (read from its lines, cheaper than the whole screen)."""
    panel = app.screen.talk_panel
    return "\n".join(str(w.render()) for w in panel.query(Static) if w.display)


async def opened(pilot: Any, app: Any, code: str) -> Any:
    from railgames.app.screens.game import GameScreen

    app.at_table(code)
    await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen opened")
    await pilot.pause()
    return app.screen


@run_async
async def test_at_120x40_the_chat_is_open_and_a_line_is_typed_and_heard(
        host: HostThread) -> None:
    from railgames.app.screens.help import HelpScreen
    from railgames.net.app import NetApp

    ann, bob, code = table_of_two(host, watcher=True)
    app = NetApp(ann)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app, code)
        panel = screen.talk_panel
        assert panel is not None and not panel.folded
        await until(pilot, lambda: "Here: ann, bob · watching: cat" in shown(app),
                    "who is here is shown")
        assert "Nobody has said anything yet" in shown(app)
        await pilot.press("t")
        assert panel.writing
        await pilot.press(*"hi bob", "enter")
        await until(pilot, lambda: "ann: hi bob" in shown(app), "ann's line shown")
        assert not panel.writing
        heard = bob.talk_so_far(code)
        assert [(line["name"], line["text"]) for line in heard.lines] == [("ann", "hi bob")]
        assert heard.players == ["ann", "bob"] and heard.watching == ["cat"]
        bob.request({"op": "say", "text": "hi \x1b[2Jann"})
        await until(pilot, lambda: "bob: hi ann" in shown(app), "bob's line shown")
        # Esc puts a line away unsaid, and leaves the game where it was.
        await pilot.press("t", *"no", "escape")
        assert not panel.writing and app.screen is screen
        assert [line["text"] for line in bob.talk_so_far(code).lines] == ["hi bob", "hi ann"]
        # T folds it into one line, the newest said; T again opens it.
        await pilot.press("T")
        assert panel.folded
        text = screen_text(app)
        assert "Chat bob: hi ann" in text and "Here:" not in text
        await pilot.press("T")
        assert not panel.folded
        # Help names the two keys, at a table that has them (the help asked for is
        # caught, not drawn: its rules take a while to lay out).
        asked: list[Any] = []
        app.push_screen = lambda screen, *args, **kw: asked.append(screen)  # type: ignore
        await pilot.press("question_mark")
        assert isinstance(asked[0], HelpScreen)
        assert "**t** writes a line to everyone here" in str(asked[0].table_keys)


@run_async
async def test_at_80x24_the_chat_is_one_line_and_marks_what_is_new(host: HostThread) -> None:
    from railgames.net.app import NetApp

    ann, bob, code = table_of_two(host)
    app = NetApp(ann)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot, app, code)
        panel = screen.talk_panel
        assert panel is not None and panel.folded
        assert panel.outer_size.height == 1
        assert "Chat nobody has said anything yet" in screen_text(app)
        # Opened, long lines take no more than a few rows: the newest are shown.
        chat.talk_of(host.server).now = itertools.count(0, 10).__next__  # never too fast
        for word in ("first", "second", "third"):
            bob.request({"op": "say", "text": f"{word} " + "long words " * 17})
        await pilot.press("T")
        await until(pilot, lambda: "third long words" in shown(app), "opened")
        await pilot.pause()
        assert panel.outer_size.height <= 1 + 6 + 1  # its border, the rows, who is here
        assert "first" not in shown(app)
        await pilot.press("T")
        await until(pilot, lambda: panel.folded, "folded again")
        bob.request({"op": "say", "text": "your move"})
        await until(pilot, lambda: "Chat ● new bob: your move" in shown(app),
                    "the new line marked")
        await pilot.press("T")  # opened: seen, so no longer new
        await until(pilot, lambda: "Here: ann, bob" in shown(app), "opened")
        await pilot.press("T")
        assert "● new" not in shown(app) and "Chat bob: your move" in shown(app)
        # Written from the folded line, the keys go to the line, not to the game.
        await pilot.press("t", *"quit? no", "enter")
        await until(pilot, lambda: "Chat ann: quit? no" in shown(app), "ann's line")
        assert app.screen is screen
        # A refusal is one line, and the line stays to be changed: too long (said here,
        # as the host would not read it) or too fast (said by the host).
        await pilot.press("t", "x")
        field = panel.query_one("#talk-input")
        field.value = "x" * 200 + "y"  # past what the field lets anyone type or paste
        await pilot.press("enter")
        assert [n.message for n in app._notifications][-1] == (
            "That line is too long: at most 200 characters")
        assert panel.writing and field.value == "x" * 200 + "y"
        chat.talk_of(host.server).now = lambda: 5000.0  # every line said at once
        for _ in range(4):  # three are said, the fourth refused
            field.value = "again"
            await pilot.press("enter")
            await until(pilot, lambda: not panel.writing or "fast" in str(
                [n.message for n in app._notifications]), "said or refused")
            if panel.writing:
                break
            await pilot.press("t")
        assert [n.message for n in app._notifications][-1].startswith(
            "Not so fast: at most 3 lines in 2 seconds")
        assert panel.writing
        await pilot.press("escape")
        assert not panel.writing
        footer = str(screen.query_one("KeyFooter").render())
        assert "t Talk" in footer


@run_async
async def test_a_hot_seat_game_has_no_chat() -> None:
    from railgames.app.main import RailgamesApp
    from railgames.app.screens.game import GameScreen
    from railgames.core.record import PlayerSpec

    players = [PlayerSpec(name="Ann"), PlayerSpec(name="Bob"), PlayerSpec(name="Cat")]
    app = RailgamesApp(new_game={"game": "new-england", "players": players, "seed": 3},
                       bot_delay=0, handoff=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game opened")
        screen = app.screen
        assert screen.talk_panel is None
        assert "Talk" not in str(screen.query_one("KeyFooter").render())
        await pilot.press("t")  # nothing happens
        assert screen.talk_panel is None and app.screen is screen


@run_async
async def test_a_move_arriving_while_a_line_is_written_leaves_the_keys_with_the_line(
        host: HostThread) -> None:
    """It becomes ann's turn while she writes: the focus would go to the board, and the
    letters she goes on typing would be moves. They stay in her line."""
    from railgames.net.app import NetApp

    ann, bob, code = table_of_two(host)
    game = host.service.tables[code].game
    assert game is not None
    app = NetApp(ann)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app, code)
        seat = app.remote_seat

        def to_move() -> int | None:
            prompt = seat.prompt()
            return None if prompt is None else prompt.seat

        for _ in range(300):  # until bob is to move (ann moves when it is hers)
            if to_move() == 1:
                break
            if to_move() == 0:
                ann.request({"op": "act",
                             "action": game.legal_actions()[0].model_dump(mode="json")})
            await pilot.pause(0.05)
        panel = screen.talk_panel
        await pilot.press("t", *"pe")
        for _ in range(20):  # bob's turn, to its end (nothing else moves meanwhile)
            prompt = game.prompt()
            if prompt is None or prompt.seat != 1:
                break
            bob.request({"op": "act",
                         "action": game.legal_actions()[0].model_dump(mode="json")})
        await until(pilot, lambda: to_move() == 0 and screen.panel.prompt is not None
                    and screen.panel.prompt.seat == 0, "ann's turn")
        await pilot.pause(0.2)
        played = seat.played()
        await pilot.press(*"nny", "enter")
        await until(pilot, lambda: "ann: penny" in shown(app), "the line said")
        await pilot.pause()
        assert seat.played() == played and to_move() == 0  # no move made by those keys
        assert not panel.writing
        # The keys are where the game put them for ann's turn (the board or its choices).
        assert screen.focused is not None and screen.focused.id in ("board", "ap-options")


@run_async
async def test_leaving_a_hosts_table_offers_your_tables_and_goes_back_to_them(
        host: HostThread) -> None:
    from railgames.net.app import NetApp
    from railgames.net.home import HomeScreen

    ann, _bob, code = table_of_two(host)
    app = NetApp(ann)
    async with app.run_test(size=(80, 24)) as pilot:
        await opened(pilot, app, code)
        await pilot.press("q")
        await until(pilot, lambda: "Your tables [l]" in screen_text(app), "the quit question")
        text = " ".join(screen_text(app).split())
        assert "your tables list it when you come back" in text and "Launcher" not in text
        await pilot.press("l")
        await until(pilot, lambda: isinstance(app.screen, HomeScreen), "back to your tables")
        await until(pilot, lambda: code in screen_text(app), "the table listed at home")
