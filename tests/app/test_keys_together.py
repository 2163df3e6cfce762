"""Keys that arrive together (a paste, tmux, a slow link) are handled one by one, in order.

Each test writes its keys as one read from the terminal: the bytes are split into
keys by Textual's own terminal parser, and every key is posted to the app before
any is handled, as the terminal driver does with one read. What comes out must be
exactly what the same keys give typed one at a time.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from textual import events
from textual._xterm_parser import XTermParser
from textual.widgets import Input

from railgames.app.main import RailgamesApp
from railgames.app.saves import saves_dir
from railgames.app.screens.game import GameScreen
from railgames.app.screens.setup import SetupScreen
from railgames.app.widgets.amount import AmountBox
from railgames.core.record import PlayerSpec, save_record
from railgames.games.new_england.state import Step
from tests.app.driving import at_ship_choice, bot_record, first_index, run_async, truncated

SIZE = (120, 40)
ENTER, TAB, BACKSPACE, CTRL_S = "\r", "\t", "\x7f", "\x13"
ARROWS = {"up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D"}
NAMES = {ENTER: "enter", TAB: "tab", BACKSPACE: "backspace", CTRL_S: "ctrl+s",
         **{code: name for name, code in ARROWS.items()}}


def together(app: Any, data: str) -> None:
    """``data`` as one read from the terminal: parsed into keys, all posted at once."""
    for event in XTermParser().feed(data):
        event.set_sender(app)
        app.post_message(event)


def one_by_one(data: str) -> list[str]:
    """The same keys as names for ``pilot.press``, which waits after each."""
    keys: list[str] = []
    rest = data
    while rest:
        code = next((c for c in NAMES if rest.startswith(c)), rest[0])
        keys.append(NAMES.get(code, code))
        rest = rest[len(code):]
    return keys


async def handled(pilot: Any, app: Any, timeout: float = 60.0) -> None:
    """Wait until every key sent has been handled and the app is at rest."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    await pilot.pause()
    queue = getattr(app, "key_queue", None)
    while queue is not None and not queue.idle:
        assert loop.time() < deadline, "the keys were never all handled"
        await pilot.pause(0.05)
    await pilot.pause()


async def send(pilot: Any, app: Any, data: str, at_once: bool) -> None:
    if at_once:
        together(app, data)
        await handled(pilot, app)
    else:
        await pilot.press(*one_by_one(data))
        await pilot.pause()


def three_humans(handoff: bool = False) -> RailgamesApp:
    return RailgamesApp(
        new_game={"game": "new-england", "players": [PlayerSpec(name=n) for n in ("Ann", "Bob", "Cat")],
                  "seed": 5},
        bot_delay=0, handoff=handoff)


def shown(screen: GameScreen) -> str:
    plain = screen.query_one(AmountBox).render().plain
    match = re.search(r":\s+\$?(\d*) ", plain)
    assert match is not None, plain
    return match.group(1)


def actions(app: Any) -> list[dict[str, Any]]:
    return [dict(a) for a in app.session.game.record.actions]


@run_async
async def test_an_amount_field_takes_a_burst_of_digits_and_backspaces_in_order() -> None:
    app = three_humans()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("enter", "enter", "enter")  # three loans of $0, one at a time
        assert [(a["type"], a["amount"]) for a in actions(app)] == [("borrow", 0)] * 3
        assert sorted(a["seat"] for a in actions(app)) == [0, 1, 2]
        assert screen.session.state.step is Step.AUCTION
        prompt = screen.session.prompt()
        assert prompt is not None
        bidder = prompt.seat
        before = len(actions(app))
        together(app, "7")
        await handled(pilot, app)
        assert shown(screen) == "7"
        together(app, BACKSPACE + "4")
        await handled(pilot, app)
        assert shown(screen) == "4"
        together(app, BACKSPACE + "15" + ENTER)  # more than Ann has: refused, and kept
        await handled(pilot, app)
        assert shown(screen) == "15"
        assert "a bid of $15 needs" in str(screen.query_one("#ap-reason").render())
        assert len(actions(app)) == before
        together(app, BACKSPACE * 2 + "3" + ENTER)
        await handled(pilot, app)
        assert actions(app)[before:] == [{"type": "bid", "seat": bidder, "amount": 3}]


@run_async
async def test_keys_after_an_enter_go_to_the_next_prompt_and_past_hand_off_screens() -> None:
    """A whole round in one read: each key for the screen that the keys before it led to."""
    # No loan for the first player; the next is ready, takes no loan; so is the third;
    # the first bidder is ready and bids 7, no, 2.
    keys = ENTER * 6 + "7" + BACKSPACE + "2" + ENTER
    made = []
    for at_once in (False, True):
        app = three_humans(handoff=True)
        async with app.run_test(size=SIZE) as pilot:
            await send(pilot, app, keys, at_once)
            made.append(actions(app))
    slow, burst = made
    assert [(a["type"], a["amount"]) for a in slow] == [
        ("borrow", 0), ("borrow", 0), ("borrow", 0), ("bid", 2)]
    assert burst == slow


def rich_ship_choice(game: Any) -> bool:
    """A ship choice from several cities, with several moves."""
    if not at_ship_choice(game):
        return False
    ships = [a for a in game.prompt().choices if a.type == "ship"]
    return len({a.path[0] for a in ships}) >= 3 and len(ships) >= 6


async def shipping_keys(at_once: bool, data: str) -> list[dict[str, Any]]:
    """From a ship choice (the board has the focus), send ``data``; the moves made."""
    record = bot_record(7)
    path = saves_dir() / "ship.json"
    save_record(truncated(record, first_index(record, rich_ship_choice)), path)
    app = RailgamesApp(load_path=path, bot_delay=0, handoff=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.query_one("#board").has_focus
        before = len(actions(app))
        await send(pilot, app, data, at_once)
        return actions(app)[before:]


@run_async
async def test_choice_lists_take_keys_together_as_one_at_a_time() -> None:
    # Tab from the board to the list of cities, down to the second, Enter; Enter
    # takes the first cube colour, Enter the only way there.
    keys = TAB + ARROWS["down"] + ENTER + ENTER + ENTER
    slow = await shipping_keys(False, keys)
    assert [(a["type"], a["path"][0]) for a in slow] == [("ship", "HAR")]
    assert await shipping_keys(True, keys) == slow


@run_async
async def test_the_board_cursor_takes_keys_together_as_one_at_a_time() -> None:
    # The arrows walk the board's cursor to a city with cubes; Enter there, Enter on
    # the destination the cursor then stands on, and Enter in the list of ways there
    # (the focus goes from the board to the list and back between the keys).
    keys = ARROWS["left"] + ARROWS["down"] + ENTER + ENTER + ENTER
    slow = await shipping_keys(False, keys)
    assert [(a["type"], a["path"][0], a["path"][-1]) for a in slow] == [("ship", "PRO", "HAR")]
    assert await shipping_keys(True, keys) == slow


@run_async
async def test_setup_names_take_a_burst_from_the_launcher_to_the_start() -> None:
    app = RailgamesApp(bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        # New game; from Start, Tab round to the first name (chosen whole on focus);
        # a name with a typo mended; Tab on to the next name; ctrl+s starts.
        together(app, ENTER + TAB * 3 + "Zoa" + BACKSPACE + "e" + TAB + TAB + "Yu" + CTRL_S)
        await handled(pilot, app)
        assert not isinstance(app.screen, SetupScreen)
        assert [p.name for p in app.session.game.players] == ["Zoe", "Yu", "Cat"]


@run_async
async def test_a_save_is_renamed_by_a_burst() -> None:
    record = bot_record(7)
    save_record(truncated(record, 20), saves_dir() / "live.json")
    app = RailgamesApp(bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        # Continue; rename the save under the cursor (its old name is chosen whole, so
        # typing replaces it); a typo mended; Enter.
        together(app, "cr" + "Clux" + BACKSPACE + "b final" + ENTER)
        await handled(pilot, app)
        assert sorted(p.name for p in saves_dir().glob("*.json")) == ["Club final.json"]


class FakeLink:
    """The app's side of the host's tables, answering what the join and login screens ask."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.listener: Any = None
        self.last_table: dict[str, Any] | None = None
        self.sent: list[dict[str, Any]] = []
        self.logins: list[tuple[str, str]] = []
        self.choose = False  # the name has its passphrase already

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        self.sent.append(message)
        return {"ok": True, "tables": []}

    def login(self, name: str, password: str, peer: str = "") -> None:
        self.logins.append((name, password))
        self.name = name

    def forget(self, code: str) -> None:
        pass


@run_async
async def test_a_join_code_typed_in_a_burst_joins_that_table() -> None:
    from railgames.net.app import NetApp, WaitingScreen

    link = FakeLink("bob")
    app = NetApp(link)  # type: ignore[arg-type]
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        together(app, "j" + "rfxq" + BACKSPACE + "p" + ENTER)
        await handled(pilot, app)
        assert [m for m in link.sent if m["op"] == "join"] == [
            {"op": "join", "code": "rfxp", "watch": False}]
        assert isinstance(app.screen, WaitingScreen)


@run_async
async def test_the_web_login_takes_name_and_password_in_one_burst() -> None:
    from railgames.net.app import NetApp, WebLoginScreen

    link = FakeLink("")
    app = NetApp(link)  # type: ignore[arg-type]
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, WebLoginScreen)
        together(app, "bom" + BACKSPACE + "b" + ENTER + "table-pw" + ENTER)
        await handled(pilot, app)
        assert link.logins == [("bob", "table-pw")]
        assert not isinstance(app.screen, WebLoginScreen)


@run_async
async def test_a_paste_waits_its_turn_behind_keys() -> None:
    app = RailgamesApp(bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        together(app, ENTER + TAB * 3)  # to the first name, chosen whole
        app.post_message(events.Paste("Zoe"))
        together(app, "y")
        await handled(pilot, app)
        assert isinstance(app.screen, SetupScreen)
        assert app.screen.query_one("#name-0", Input).value == "Zoey"


@run_async
async def test_a_number_pasted_into_an_amount_field_is_typed_digit_by_digit() -> None:
    app = three_humans()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("enter", "enter", "enter")  # three loans of $0
        before = len(actions(app))
        app.post_message(events.Paste("$1 5\n"))
        together(app, "0" + BACKSPACE + ENTER)  # typed after it: they wait for the paste
        await handled(pilot, app)
        assert "a bid of $15 needs" in str(screen.query_one("#ap-reason").render())
        assert shown(screen) == "15" and len(actions(app)) == before
