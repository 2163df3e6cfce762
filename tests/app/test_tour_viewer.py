"""The quick tour in the viewer: its stops in order, every rule in full, the end of the tour."""

from __future__ import annotations

from typing import Any

import pytest

from railgames.app.main import RailgamesApp
from railgames.app.screens.launcher import LauncherScreen
from railgames.app.screens.tour import TourEndScreen, TourScreen
from railgames.app.widgets.footer import KeyFooter
from railgames.core.rulebook import rulebook
from railgames.core.tour import chosen_tour, skip_line
from railgames.games import load_ruleset
from tests.app.driving import narration_of, run_async, screen_text, wait_for


@run_async
async def test_the_tour_plays_its_stops_in_order_and_ends_with_what_to_do_next(
        monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset = load_ruleset("american-rails")
    book = rulebook(ruleset)
    tour = chosen_tour(ruleset)
    seen: list[tuple[int, int]] = []
    shown = TourScreen._go

    def go(screen: TourScreen, index: int) -> None:
        shown(screen, index)
        seen.append((screen.recording.position, screen.index))

    monkeypatch.setattr(TourScreen, "_go", go)
    app = RailgamesApp(watch={"tour": tour, "speed": 200.0})
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, app, TourEndScreen)
        [viewer] = [s for s in app.screen_stack if isinstance(s, TourScreen)]
        # Every stop, in order, unattended, then the end of the tour.
        stops = [(s.position, i) for i, s in enumerate(tour.stops)]
        assert seen == stops + [(tour.stops[-1].position, len(tour.stops))]
        assert not viewer.playing
        told = narration_of(viewer)
        for rule in book:
            assert told.count(f"NEW RULE: {rule.title} ") == 1, rule.id
        # The bidding: the skipped stretches each in one line, the auctions' among them.
        lines = [skip_line(s, book) for s in tour.stops if s.skipped]
        assert any(": Share auctions" in line for line in lines)
        for line in lines:
            assert f"\u2026 {line}" in " ".join(told.split())
        text = " ".join(screen_text(app).split())
        assert "End of the tour: every rule of American Rails explained once" in text
        assert "Whole demo [d]" in text and "New game [g]" in text
        await pilot.press("escape")  # back to the tour, at its end
        await pilot.pause()
        assert app.screen is viewer and not viewer.playing
        assert "end of the tour" in screen_text(app)
        asked: list[str] = []
        monkeypatch.setattr(app, "start_demo", asked.append)
        await pilot.press("d")  # the whole demo of the game (as the launcher's w opens it)
        await pilot.pause()
        assert asked == ["american-rails"]


@run_async
async def test_n_goes_from_stop_to_stop_and_on_to_the_tour_s_next_game() -> None:
    ruleset = load_ruleset("railways-of-the-world")
    book = rulebook(ruleset)
    tour = chosen_tour(ruleset)
    assert len(tour.pieces) == 2
    app = RailgamesApp(watch={"tour": tour})
    async with app.run_test(size=(80, 24)) as pilot:
        viewer = await wait_for(pilot, app, TourScreen)
        footer = viewer.query_one(KeyFooter).text()
        assert " n Next rule " in footer and " → Next stop " in footer
        await pilot.press("space")
        assert not viewer.playing
        for index, stop in enumerate(tour.stops[1:], start=1):
            await pilot.press("n")
            await pilot.pause()
            assert viewer.index == index
            assert viewer.recording is viewer.recordings[stop.piece]
            assert viewer.recording.position == stop.position
            told = narration_of(viewer)
            assert f"Stop {index + 1} of {len(tour.stops)}" in told
            for rule_id in stop.rules:
                assert f"NEW RULE: {book[rule_id].title} " in told
            if stop.skipped:
                assert skip_line(stop, book) in " ".join(told.split())
            screen = screen_text(app)
            if stop.piece == 1:
                assert "On to another game" in told
                assert "game 2 of 2" in screen
            # The stop's start is in view: its skip line, or its heading.
            first = f"\u2026 {skip_line(stop, book)}" if stop.skipped else "Stop "
            assert first[:30] in screen
        assert not viewer.playing  # n pauses, and keeps the tour where it is
        await pilot.press("n")  # past the last stop: the end of the tour
        await wait_for(pilot, app, TourEndScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("left")  # back from the end to the last stop
        await pilot.pause()
        assert viewer.index == len(tour.stops) - 1 and viewer.recording.position == 0
        await pilot.press("home")
        await pilot.pause()
        assert viewer.index == 0 and viewer.recording is viewer.recordings[0]
        assert "On to another game" not in narration_of(viewer)


@run_async
async def test_quick_tour_in_the_launcher_opens_the_selected_game_s_tour() -> None:
    app = RailgamesApp()
    async with app.run_test(size=(80, 24)) as pilot:
        launcher = await wait_for(pilot, app, LauncherScreen)
        assert "Quick tour [t]" in screen_text(app)
        await pilot.press("down")  # the second game of the list
        wanted = launcher.selected
        await pilot.press("t")
        viewer = await wait_for(pilot, app, TourScreen)
        assert viewer.ruleset.id == wanted
        assert "Quick tour" in screen_text(app) and "Stop 1 of" in narration_of(viewer)
        await pilot.press("escape")
        await wait_for(pilot, app, LauncherScreen)


def test_demo_tour_opens_the_viewer(monkeypatch: pytest.MonkeyPatch) -> None:
    """``railgames demo GAME --tour`` starts the app on the tour (run here under Pilot)."""
    import railgames.app.main
    from railgames.cli import main

    started: list[dict[str, Any]] = []

    def run_app(watch: dict[str, Any] | None = None, **kw: Any) -> int:
        started.append(dict(watch or {}))
        return 0

    monkeypatch.setattr(railgames.app.main, "run_app", run_app)
    assert main(["demo", "steel-driver", "--tour", "--speed", "2"]) == 0
    [spec] = started
    assert spec["speed"] == 2.0 and spec["tour"].game == "steel-driver"

    @run_async
    async def opens() -> None:
        app = RailgamesApp(watch=spec)
        async with app.run_test(size=(80, 24)) as pilot:
            viewer = await wait_for(pilot, app, TourScreen)
            assert viewer.speed == 2.0 and viewer.playing
            assert "Steel Driver · Quick tour" in screen_text(app)
            assert "NEW RULE: " in narration_of(viewer)

    opens()
