"""Amount fields submit what they show; undo against bots takes back a whole round of replies."""

from __future__ import annotations

import re

from railgames.app.main import RailgamesApp
from railgames.app.screens.game import GameScreen
from railgames.app.widgets.amount import AmountBox
from railgames.core.record import PlayerSpec
from railgames.games.new_england.state import Step
from tests.app.driving import run_async

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
        await pilot.press("2", "0", "0", "enter")  # no upper end to Bank Loans
        last = screen.session.game.record.actions[-1]
        assert (last["type"], last["amount"]) == ("borrow", 200)


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
