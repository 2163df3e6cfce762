"""Amount fields submit what they show, in a range of any length; undo against bots takes
back a whole round of replies."""

from __future__ import annotations

import copy
import re

from textual.app import App, ComposeResult

from railgames.app.commands import MAX_AMOUNTS, GameCommands
from railgames.app.main import RailgamesApp
from railgames.app.screens.game import GameScreen
from railgames.app.widgets.amount import AmountBox
from railgames.core.record import PlayerSpec
from railgames.games.new_england.state import Step
from tests.app.driving import run_async, screen_text

SIZE = (120, 40)


def three_humans() -> RailgamesApp:
    return RailgamesApp(
        new_game={"game": "new-england", "players": [PlayerSpec(name=n) for n in ("Ann", "Bob", "Cat")],
                  "seed": 5},
        bot_delay=0, handoff=False)


def shown(screen: GameScreen) -> str:
    """The digits the amount field shows."""
    plain = screen.query_one(AmountBox).render().plain
    match = re.search(r":\s+\$?(\d*) ", plain)
    assert match is not None, plain
    return match.group(1)


def reason(screen: GameScreen) -> str:
    return str(screen.query_one("#ap-reason").render())


@run_async
async def test_a_refused_bid_stays_in_the_field_and_backspace_takes_off_one_digit() -> None:
    app = three_humans()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", "enter", "enter")  # three players take no loan
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.session.state.step is Step.AUCTION
        actions = len(screen.session.game.record.actions)
        await pilot.press("5", "0", "enter")
        assert "a bid of $50 needs" in reason(screen)
        assert shown(screen) == "50"  # the refused number is still what the field shows
        await pilot.press("backspace")
        assert shown(screen) == "5"
        assert len(screen.session.game.record.actions) == actions
        await pilot.press("enter")
        last = screen.session.game.record.actions[-1]
        assert (last["type"], last["amount"]) == ("bid", 5)


@run_async
async def test_an_emptied_loan_field_submits_nothing() -> None:
    app = three_humans()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.session.state.step is Step.LOANS
        await pilot.press("1", "5", "enter")
        assert "$10 units" in reason(screen)
        await pilot.press("backspace", "backspace")
        assert shown(screen) == ""
        await pilot.press("enter")
        assert screen.session.game.record.actions == []
        assert "field is empty" in reason(screen)
        await pilot.press("2", "0", "0", "enter")  # past the listed loans: as legal
        last = screen.session.game.record.actions[-1]
        assert (last["type"], last["amount"]) == ("borrow", 200)


@run_async
async def test_the_command_palette_lists_a_few_of_a_fortune_s_bids() -> None:
    app = three_humans()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", "enter", "enter")  # three players take no loan
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.session.state.step is Step.AUCTION
        game = screen.session.game
        # A test position: the bidder holds $10,000,000,000,000,000,000 (no loan is that large).
        state = copy.deepcopy(game.state)
        state.railways[state.auction.to_act].cash = 10**19
        game.state = state
        texts = [text for text, _, _ in GameCommands(screen)._commands()]
        bids = [t for t in texts if t.startswith("Bid $")]
        assert len(bids) == MAX_AMOUNTS
        assert bids[:2] == ["Bid $1", "Bid $2"] and bids[-1] == f"Bid ${10**19}"
        assert any(t.startswith("Pass") for t in texts) and "Save the game now" in texts


class OneAmount(App[None]):
    """An amount field alone, keeping what it submits."""

    def __init__(self) -> None:
        super().__init__()
        self.submitted: list[int | None] = []

    def compose(self) -> ComposeResult:
        yield AmountBox()

    def on_amount_box_submitted(self, event: AmountBox.Submitted) -> None:
        self.submitted.append(event.value)


@run_async
async def test_the_amount_field_steps_and_submits_in_a_range_of_any_length() -> None:
    app = OneAmount()
    async with app.run_test(size=(100, 5)) as pilot:
        box = app.query_one(AmountBox)
        box.configure("Bid", 1, 10**30, 1, 1)
        box.focus()
        await pilot.press("pageup", "pageup", "plus", "enter")
        assert app.submitted == [22]
        assert f"$1–${10**30:,}" in box.render().plain
        huge, step = 10**29, 10**28
        box.configure("Bid", huge, huge + 15 * step, step, huge)
        await pilot.press("plus", "enter", "pagedown", "pagedown", "enter", "pageup", "pageup",
                          "enter")
        assert app.submitted[1:] == [huge + step, huge, huge + 15 * step]  # held within the range


@run_async
async def test_a_bid_reads_as_money_does_elsewhere_and_its_range_keeps_off_the_buttons() -> None:
    """Railways of the World's bids are thousands: the field writes them as the log and
    the panels do ("$26,000"), and the range goes after the number or, when that line is
    too short, whole on a line of its own, never wrapped in under the + button."""
    for size in ((80, 24), (120, 40)):
        app = RailgamesApp(new_game={"game": "railways-of-the-world", "map": "rotw-mexico",
                                     "players": [PlayerSpec(name=n) for n in ("Ann", "Bob", "Cat")],
                                     "seed": 5}, bot_delay=0, handoff=False)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await pilot.press("2", "5", "0", "0", "0", "enter")  # Ann bids $25,000
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            assert screen.session.game.record.actions[-1]["amount"] == 25_000
            box = screen.query_one(AmountBox)
            plus = screen.query_one("#ap-plus")
            lines = box.render().plain.splitlines()
            assert lines[0].startswith("Bid:  $26,000 ")
            assert all(len(line) <= box.content_region.width for line in lines), (size, lines)
            assert box.region.right <= plus.region.x and plus.region.y == box.region.y
            text = screen_text(app).replace("\n", " ")
            assert "(≥$26,000, steps of $1,000)" in text and "High bid $25,000 by Ann" in text
            assert "$26000" not in text and "$1000" not in text


def ann_and_two_bots(game: str, seed: int) -> RailgamesApp:
    players = [PlayerSpec(name="Ann"), PlayerSpec(name="Bob", kind="greedy"),
               PlayerSpec(name="Cat", kind="greedy")]
    return RailgamesApp(new_game={"game": game, "players": players, "seed": seed}, bot_delay=0)


@run_async
async def test_u_against_bots_takes_back_your_move_and_their_answers() -> None:
    app = ann_and_two_bots("steel-driver", 2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        game = screen.session.game
        # Ann answers with Enter (the first choice, the offered amount) until a bot has answered.
        before = len(game.record.actions)
        for _ in range(20):
            if any(a["seat"] != 0 for a in game.record.actions[before:]):
                break
            count = len(game.record.actions)
            await pilot.press("enter")
            await pilot.pause()
        else:
            raise AssertionError("the bots never moved")
        assert screen.session.prompt().seat == 0  # the bots have answered; Ann's turn again
        answered = list(game.record.actions)
        assert game.record.actions[count]["seat"] == 0 and len(answered) > count + 1
        await pilot.press("u")
        assert game.record.actions == answered[:count]
        assert screen.session.prompt().seat == 0
        assert any("bot move" in n.message for n in app._notifications)
