"""The game screens read their table through the Table protocol and nothing else.

Each game here is played through the app with its table wrapped in ``StrictTable``,
which answers the protocol's members and refuses (and notes) any other: a screen
that reached past the protocol (into the engine's ``Game``, a save path, whether the
table is remote) would be caught at once.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from railgames.app.main import RailgamesApp
from railgames.app.saves import saves_dir
from railgames.app.screens.game import GameScreen
from railgames.app.screens.game_over import GameOverScreen
from railgames.app.screens.handoff import HandoffScreen
from railgames.app.screens.viewer import ViewerScreen
from railgames.core.engine import Game
from railgames.core.record import GameRecord, PlayerSpec, save_record
from railgames.games import load_ruleset
from railgames.tables.local import Session
from railgames.tables.recording import Recording
from railgames.tables.remote import RemoteSeat
from railgames.tables.table import Table
from tests.app.driving import bot_record, first_index, play_to_the_end, run_async, truncated

SIZE = (120, 40)

# What the protocol has: its methods and properties, and the flags it declares.
MEMBERS = frozenset({n for n in vars(Table) if not n.startswith("_")} | set(Table.__annotations__))


class StrictTable:
    """A table that lets through the Table protocol's members only; anything else read
    is noted in ``strays`` and refused."""

    def __init__(self, table: Any, strays: list[str]) -> None:
        object.__setattr__(self, "_table", table)
        object.__setattr__(self, "_strays", strays)

    def __getattr__(self, name: str) -> Any:
        if name in MEMBERS:
            return getattr(self._table, name)
        self._strays.append(name)
        raise AttributeError(f"{name!r} is not part of the Table protocol")

    def __setattr__(self, name: str, value: Any) -> None:
        self._strays.append(f"{name} (set)")
        raise AttributeError(f"{name!r} is not part of the Table protocol")


@pytest.fixture
def strays(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every table the game and game-over screens are given comes wrapped in StrictTable;
    what they read past the protocol is listed here."""
    found: list[str] = []
    for screen in (GameScreen, GameOverScreen):
        original = screen.__init__

        def strict(self: Any, session: Any, *args: Any, _original: Any = original, **kw: Any) -> None:
            if not isinstance(session, StrictTable):
                session = StrictTable(session, found)
            _original(self, session, *args, **kw)

        monkeypatch.setattr(screen, "__init__", strict)
    return found


def test_the_protocol_is_what_the_strict_table_lets_through() -> None:
    assert {"view", "prompt", "events_for", "submit", "undo", "why_not_undo", "is_bot", "humans",
            "away", "mark", "changes", "read_only", "shared", "seat", "can_save"} <= MEMBERS
    assert "game" not in MEMBERS and "apply" not in MEMBERS and "remote" not in MEMBERS
    strays: list[str] = []
    table = StrictTable(Session.new("new-england", [PlayerSpec(name=n) for n in ("Ann", "Bob", "Cat")],
                                    5, autosave=False), strays)
    assert isinstance(table, Table)
    assert table.prompt() is not None and table.shared
    with pytest.raises(AttributeError):
        table.game  # noqa: B018 - the read is the test
    assert strays == ["game"]


def write(record: GameRecord, name: str) -> Path:
    path = saves_dir() / name
    save_record(record, path)
    return path


async def look_around(pilot: Any, app: Any, screen: GameScreen) -> None:
    """The keys that read the table besides playing: save, log, help, history, undo."""
    await pilot.press("s")
    for key in ("L", "question_mark", "v"):
        await pilot.press(key)
        await pilot.pause()
        assert app.screen is not screen, key
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen, key
    await pilot.press("u")  # taken back, or refused with the reason
    await pilot.pause()


@run_async
async def test_new_england_is_played_to_the_end_through_the_protocol_alone(strays: list[str]) -> None:
    record = bot_record(3)
    path = write(truncated(record, len(record.actions) - 40), "ne.json")
    app = RailgamesApp(load_path=path, bot_delay=0, handoff=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        if isinstance(app.screen, HandoffScreen):
            await pilot.press("enter")
        screen = app.screen
        assert isinstance(screen, GameScreen) and isinstance(screen.session, StrictTable)
        await look_around(pilot, app, screen)
        # A move, then "u" on the hand-off screen (which asks whether it may be taken back).
        await play_one(pilot, app, screen)
        if isinstance(app.screen, HandoffScreen):
            await pilot.press("u")
            await pilot.pause()
        await play_to_the_end(pilot, app)
        over = app.screen
        assert isinstance(over, GameOverScreen) and isinstance(over.session, StrictTable)
        await pilot.press("l")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(app.screen, ViewerScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("b")  # the final board, the game screen again
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.screen.review
        await pilot.press("g")
        await pilot.pause()
        assert app.session is not None and app.session.game.result() is not None
    assert strays == []


async def play_one(pilot: Any, app: Any, screen: GameScreen) -> None:
    """One decision by keys (Enter takes what is offered; in an auction, pass)."""
    prompt = screen.session.prompt()
    assert prompt is not None
    before = screen.session.played()
    for key in ("p" if prompt.step == "Auction" else "enter", "enter", "enter", "enter"):
        await pilot.press(key)
        if screen.session.played() != before or app.screen is not screen:
            return


@run_async
async def test_a_game_of_secrets_with_a_bot_between_two_people_goes_through_the_protocol(
        strays: list[str]) -> None:
    game = "paris-connection"
    players = [PlayerSpec(name="Ann"), PlayerSpec(name="Bob", kind="greedy"), PlayerSpec(name="Cat")]
    record = bot_record(7, players, game=game)
    last = Game.replay(load_ruleset(game), record).state.turn
    path = write(truncated(record, first_index(record, lambda g: g.state.turn == last - 3)), "pc.json")
    app = RailgamesApp(load_path=path, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        handoffs = 0
        looked = False
        for _ in range(600):
            screen = app.screen
            if isinstance(screen, GameOverScreen):
                break
            if isinstance(screen, HandoffScreen):
                handoffs += 1
                await pilot.press("enter")
                await pilot.pause()
                continue
            if not isinstance(screen, GameScreen):
                await pilot.pause()
                continue
            prompt = screen.session.prompt()
            if prompt is None or screen.session.is_bot(prompt.seat):
                await pilot.pause()
                continue
            if not looked:
                await look_around(pilot, app, screen)
                looked = True
            before = screen.session.played()
            keys = ["enter"] if prompt.step.lower().startswith("build") else ["enter"] * 3
            for key in [*keys, "e"]:
                await pilot.press(key)
                if screen.session.played() != before or app.screen is not screen:
                    break
            await pilot.pause()
        else:
            raise AssertionError("the game did not end")
        assert handoffs >= 2 and looked
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("l")
        await pilot.pause()
    assert strays == []


def off_loop(call: Any, *args: Any) -> Any:
    """Run ``call`` in a thread of its own, as the host would: away from the app's loop, the
    service keeps and shows each change before it returns."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(call, *args).result(timeout=60)


class HostLink:
    """An app's link to a host's table, played straight into the host's service (no socket)."""

    def __init__(self, service: Any, member: Any, inbox: Any) -> None:
        self.service, self.member, self.inbox = service, member, inbox

    last_table = property(lambda self: self.inbox.last_table)

    def view_so_far(self, code: str) -> Any:
        return self.inbox.view_so_far(code)

    def messages_after(self, code: str, seq: int) -> Any:
        return self.inbox.messages_after(code, seq)

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        if message["op"] == "act":
            off_loop(self.service.act, self.member, message["action"])
        elif message["op"] == "undo":
            off_loop(self.service.undo, self.member)
        else:
            raise AssertionError(f"not sent in this test: {message}")
        return {"ok": True}


@run_async
async def test_a_seat_at_a_hosts_table_is_played_through_the_protocol(tmp_path: Path,
                                                                       strays: list[str]) -> None:
    from railgames.net.service import TableService
    from tests.test_host_tables import member

    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    (ann, ann_in), (bob, _), (cat, _) = member("ann"), member("bob"), member("cat")
    table = off_loop(lambda: service.create(ann, "new-england", seats=3, humans=3))
    off_loop(service.join, bob, table.code)
    off_loop(service.join, cat, table.code)
    assert table.status == "playing" and table.game is not None
    seat = RemoteSeat(HostLink(service, ann, ann_in), ann_in.last)  # type: ignore[arg-type]
    assert seat.seat == 0 and not seat.shared and not seat.can_save
    others = {1: bob, 2: cat}
    app = RailgamesApp(bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(GameScreen(seat, handoff=False))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and isinstance(screen.session, StrictTable)
        moves = 0
        while moves < 12 and table.game.prompt() is not None:
            prompt = table.game.prompt()
            if prompt.seat == 0:
                before = seat.played()
                await play_one(pilot, app, screen)
                assert seat.played() > before, prompt.step
            else:
                legal = table.game.legal_actions()
                action = next((a for a in legal if a.type == "pass"), legal[0])
                off_loop(service.act, others[prompt.seat], action.model_dump(mode="json"))
                seat.update(ann_in.last)  # as the app does with each message from the host
                screen.refresh_all()
            await pilot.pause()
            moves += 1
        for key in ("s", "u", "L"):  # kept by the host; take back; the log
            await pilot.press(key)
            await pilot.pause()
        assert moves == 12
    assert strays == []


def test_every_kind_of_table_is_one() -> None:
    session = Session.new("new-england", [PlayerSpec(name=n) for n in ("Ann", "Bob", "Cat")], 5,
                          autosave=False)
    recording = Recording.of_game(session.game, reveal_all=True)
    for table in (session, recording):
        assert isinstance(table, Table)
        assert MEMBERS <= set(dir(table))
