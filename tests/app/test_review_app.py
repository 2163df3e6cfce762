"""R at game over: the review worked out in the worker process with its progress shown,
the costly decisions marked in the history viewer, and t starting a game from one."""

from __future__ import annotations

import time
from typing import Any

from rich.text import Text
from textual.widgets import Static

from railgames.app.main import RailgamesApp
from railgames.app.saves import saves_dir
from railgames.app.screens.confirm import ConfirmScreen
from railgames.app.screens.game import GameScreen
from railgames.app.screens.game_over import GameOverScreen
from railgames.app.screens.review import ReviewScreen
from railgames.core.record import GameRecord, PlayerSpec, load_record
from railgames.tables.local import Session
from tests.app.driving import run_async
from tests.review_support import SEAT, bad_game

SMALL = (80, 24)
BUDGET = (1, 1)  # a review's tree iterations and samples a decision: small, for speed


def seated(kinds: list[str]) -> GameRecord:
    record, _ = bad_game()
    return record.model_copy(deep=True, update={"players": [
        PlayerSpec(name=p.name, kind=k) for p, k in zip(record.players, kinds, strict=True)]})  # type: ignore[arg-type]


def text_of(screen: Any, selector: str) -> str:
    content = screen.query_one(selector, Static).render()
    return content.plain if isinstance(content, Text) else str(content)


async def until(pilot: Any, holds: Any, what: str, limit: float = 120) -> None:
    give_up = time.monotonic() + limit  # a bound on waiting, not a measure of speed
    while not holds():
        if time.monotonic() > give_up:
            raise AssertionError(f"waited in vain for {what}")
        await pilot.pause(0.05)


async def game_over(app: RailgamesApp, pilot: Any, record: GameRecord) -> GameOverScreen:
    over = GameOverScreen(Session.resume(record))
    over.review_budget = BUDGET
    await app.push_screen(over)
    await pilot.pause()
    return over


@run_async
async def test_review_marks_the_costly_decisions_and_t_plays_from_one_at_80x24() -> None:
    """One person among bots: R reviews that person at once (no one to choose)."""
    record = seated(["human", "greedy", "greedy", "greedy", "greedy"])
    app = RailgamesApp(bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        over = await game_over(app, pilot, record)
        await pilot.press("R")
        await until(pilot, lambda: "Reviewing" in text_of(over, "#go-review"), "the progress line")
        await until(pilot, lambda: " of " in text_of(over, "#go-review")
                    or isinstance(app.screen, ReviewScreen), "the count of decisions")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review")
        review = app.screen
        assert isinstance(review, ReviewScreen)
        await pilot.pause()
        assert review.review.seat == SEAT and review.costly
        first = review.costly[0]
        assert review.recording.position == first.position
        box = text_of(review, "#v-review")
        assert f"Costly decision 1 of {len(review.costly)}" in box
        assert "Played: " + first.played[:20] in box and "Better: " in box and "Why: " in box
        assert review.query_one("#v-review").region.bottom <= SMALL[1]
        # n goes to the next costly decision in the game's order, N back.
        later = [d for d in review.costly if d.position > first.position]
        await pilot.press("n")
        expected = min(later, key=lambda d: d.position) if later else \
            min(review.costly, key=lambda d: d.position)
        assert review.recording.position == expected.position
        await pilot.press("N")
        assert review.recording.position == first.position
        # Away from a decision of theirs, t says where to go.
        await pilot.press("right")
        await pilot.pause()
        prompt = review.recording.prompt()
        if prompt is None or prompt.seat != SEAT:
            await pilot.press("t")
            assert isinstance(app.screen, ReviewScreen)
        await pilot.press("N")
        if review.recording.position != first.position:
            await pilot.press("n")
        assert review.recording.position == first.position
        # t: a new saved game from that moment, the person against the bots.
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        game = app.screen
        assert isinstance(game, GameScreen)
        session = game.session
        assert isinstance(session, Session)
        assert session.record.actions == record.actions[:first.position]
        assert [p.kind for p in session.players] == ["human"] + ["greedy"] * 4
        prompt = session.prompt()
        assert prompt is not None and prompt.seat == SEAT
        saved = list(saves_dir().glob("*.json"))
        assert len(saved) == 1 and load_record(saved[0]).actions == session.record.actions


@run_async
async def test_several_people_choose_whose_review_and_esc_stops_it() -> None:
    record = seated(["human", "human", "greedy", "greedy", "greedy"])
    app = RailgamesApp(bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        over = await game_over(app, pilot, record)
        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("2")  # the second person
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen), "the game-over screen")
        await until(pilot, lambda: "Reviewing Bob" in text_of(over, "#go-review"), "the progress")
        run = over._run
        assert run is not None and run.seat == 1
        await pilot.press("escape")
        await pilot.pause()
        assert over._run is None and run.stopped and text_of(over, "#go-review") == ""
        assert isinstance(app.screen, GameOverScreen)  # Esc stopped the review, not the screen


@run_async
async def test_a_game_of_bots_only_has_no_review() -> None:
    record = seated(["greedy"] * 5)
    app = RailgamesApp(bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        over = await game_over(app, pilot, record)
        await pilot.press("R")
        await pilot.pause()
        assert over._run is None and isinstance(app.screen, GameOverScreen)
        assert any("Bots played every seat" in str(n.message) for n in app._notifications)


@run_async
async def test_a_player_who_made_no_decision_is_told_so() -> None:
    """A review with no decision in it (worked out before, as R keeps one) opens nothing."""
    from railgames.core.review import Review

    record = seated(["human", "greedy", "greedy", "greedy", "greedy"])
    app = RailgamesApp(bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        over = await game_over(app, pilot, record)
        over._reviews[SEAT] = Review(SEAT, ())
        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen) and over._run is None
        assert any("no choice to make" in str(n.message) for n in app._notifications)
