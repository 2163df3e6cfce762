"""A sixth game joins through the registry alone, from a folder outside the package.

Claims (tests/fixtures/toy_game) brings its descriptor, rules, map, board, UI,
help, key word and CSS; registering it is all it takes to play it in the app to
the end, with nothing in railgames/app or railgames/core knowing of it. The app
itself names no game: a grep of railgames/app finds no game's id or folder.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from railgames.app.main import RailgamesApp
from railgames.app.screens.game import GameScreen
from railgames.app.screens.game_over import GameOverScreen
from railgames.app.screens.help import rules_text
from railgames.app.widgets.footer import KeyFooter
from railgames.core.engine import Game
from railgames.core.record import PlayerSpec, load_record
from railgames.games import (
    GAMES,
    SHIPPED,
    launcher_ids,
    register,
    ruleset_for_record,
    unregister,
)
from tests.app.driving import run_async
from tests.fixtures.toy_game.game import GAME

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def toy() -> Iterator[None]:
    register(GAME)
    try:
        yield
    finally:
        unregister(GAME.id)


def test_the_app_names_no_game() -> None:
    names = [*GAMES, *SHIPPED]
    found = []
    for path in sorted((ROOT / "railgames" / "app").rglob("*")):
        if path.suffix in {".py", ".tcss"}:
            text = path.read_text(encoding="utf-8")
            found += [f"{path.relative_to(ROOT)}: {n}" for n in names if n in text]
    assert not found, found


def test_the_toy_game_is_not_shipped() -> None:
    assert GAME.id not in GAMES
    assert GAME.id not in launcher_ids()


def test_registering_adds_the_game_and_unregistering_takes_it_away() -> None:
    register(GAME)
    try:
        assert GAME.id in GAMES
        assert "Take turns claiming" in rules_text(GAME.id)
    finally:
        unregister(GAME.id)
    assert GAME.id not in GAMES
    with pytest.raises(Exception, match="not a game added by register"):
        unregister("new-england")


@run_async
async def test_the_toy_game_plays_to_the_end_in_the_app(toy: None) -> None:
    players = [PlayerSpec(name="Ann"), PlayerSpec(name="Bob")]
    app = RailgamesApp(new_game={"game": GAME.id, "players": players, "seed": 1},
                       bot_delay=0, handoff=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        # its CSS (ClaimsBoard.SCREEN_CSS) and its key word (the descriptor's) are in use
        assert screen.query_one("#side").outer_size.width == 44
        footer = screen.query_one(KeyFooter)
        assert ("c", "Claim the first free") in [(h.key, h.description) for h in footer.hints()[0]]
        for _ in range(5):  # five stations, claimed in turn with the game's own key
            assert isinstance(app.screen, GameScreen)
            await pilot.press("c")
            await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        result = app.session.game.result()
        assert result is not None and result.winners == ["Ann"]  # Ayr, Coll and Eigg
        saved = load_record(app.session.save_path)
        assert Game.replay(ruleset_for_record(saved, "the save"), saved).result() == result
