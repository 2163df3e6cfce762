"""Records and key-driving routines for the app tests."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from textual.widgets import RichLog

from railgames.app.screens.game import GameScreen
from railgames.app.screens.game_over import GameOverScreen
from railgames.app.screens.handoff import HandoffScreen
from railgames.app.screens.viewer import ViewerScreen
from railgames.core.engine import Game
from railgames.core.record import GameRecord, PlayerSpec
from railgames.core.simulate import bot_players, play_bot_game
from railgames.games import load_ruleset

HUMANS = [PlayerSpec(name="Ann"), PlayerSpec(name="Bob"), PlayerSpec(name="Cat")]


def bot_record(seed: int, players: list[PlayerSpec] | None = None,
               game: str = "new-england") -> GameRecord:
    """A whole game played by greedy bots, then given the seats ``players`` (humans by default)."""
    ruleset = load_ruleset(game)
    game = play_bot_game(ruleset, bot_players(3, "greedy"), seed)
    record = game.record.model_copy(deep=True)
    record.players = list(players or HUMANS)
    record.created = "2025-01-01T12:00:00+00:00"
    record.updated = "2025-01-01T12:30:00+00:00"
    return record


def truncated(record: GameRecord, upto: int) -> GameRecord:
    game = Game.replay(load_ruleset(record.game, record.map), record, upto=upto)
    out = game.record.model_copy(deep=True)
    out.created, out.updated = record.created, record.updated
    return out


def first_index(record: GameRecord, wanted: Any, start: int = 0) -> int:
    """The first action count at which ``wanted(game)`` holds.

    The game is replayed once and moved on one recorded action at a time (as
    ``Game.replay`` does), not replayed from the start for every count."""
    ruleset = load_ruleset(record.game, record.map)
    game = Game.replay(ruleset, record, upto=start)
    for upto in range(start, len(record.actions) + 1):
        if wanted(game):
            return upto
        if upto < len(record.actions):
            game.apply(record.actions[upto], recorded=True)
    raise AssertionError("no such moment in the record")


def games_at(ruleset: Any, record: GameRecord, counts: Iterable[int]) -> Iterator[Game]:
    """The game after each of ``counts`` actions (in rising order), as ``Game.replay``
    with ``upto`` gives it, but replayed once and moved on: the same game object each
    time, so a caller keeping a state copies it."""
    game = Game.replay(ruleset, record, upto=0)
    for count in counts:
        while len(game.record.actions) < count:
            game.apply(record.actions[len(game.record.actions)], recorded=True)
        assert len(game.record.actions) == count, "counts go up"
        yield game


def at_ship_choice(game: Game) -> bool:
    prompt = game.prompt()
    return prompt is not None and prompt.step.startswith("Shipping") and any(
        a.type == "ship" for a in prompt.choices)


def at_auction(game: Game) -> bool:
    prompt = game.prompt()
    return prompt is not None and prompt.step == "Auction"


def state_fields(state: Any) -> dict[str, Any]:
    """Everything in a New England state, the dice included, for equality checks."""
    out = {k: v for k, v in vars(state).items() if k != "chance"}
    out["chance"] = state.chance._rng.getstate()
    return out


async def play_to_the_end(pilot: Any, app: Any, max_presses: int = 4000) -> int:
    """Answer every human prompt with keys until the game-over screen; returns the presses used."""
    presses = 0
    bids = 0
    while presses < max_presses:
        screen = app.screen
        if isinstance(screen, GameOverScreen):
            return presses
        if isinstance(screen, HandoffScreen):
            await pilot.press("enter")
            presses += 1
            continue
        if not isinstance(screen, GameScreen):
            await pilot.pause()
            continue
        prompt = screen.session.prompt()
        if prompt is None or screen.session.is_bot(prompt.seat):
            await pilot.pause()
            continue
        before = screen.session.played()
        step = screen.session.state.step
        if step == "auction":
            # Bid the least now and then (a link of one's own), otherwise pass.
            bids += 1
            keys = ["enter"] if bids % 3 == 0 else ["p"]
        elif step == "finish":
            keys = ["y"]
        elif step == "ship":
            keys = ["tab", "enter", "enter", "enter", "enter", "enter"]
        else:
            keys = ["enter"]
        for key in keys:
            await pilot.press(key)
            presses += 1
            if screen.session.played() != before or app.screen is not screen:
                break
        else:
            raise AssertionError(f"keys {keys} did nothing at {prompt.step}: {prompt.text}")
    raise AssertionError("the game did not end")


def screen_text(app: Any) -> str:
    """The plain text of what the terminal shows now (the screen on top)."""
    import io

    from rich.console import Console

    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True,
                      color_system=None, legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens))
    return console.export_text()


def board_without_colour(board: Any, width: int) -> str:
    """A board's rows as a terminal under NO_COLOR shows them: only the characters."""
    import io

    from rich.console import Console

    from railgames.app.widgets.board_base import make_strip

    console = Console(no_color=True, file=io.StringIO(), width=width, record=True,
                      color_system="standard")
    for y in range(board.layout_.height):
        for segment in make_strip(board._rows[y], board.rich_style):
            console.print(segment.text, end="", style=segment.style)
        console.print()
    return console.export_text()


def run_async(test: Any) -> Any:
    """Run an async test in asyncio.run, so that no async pytest plugin is needed."""
    import asyncio
    import functools

    @functools.wraps(test)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return wrapper


def spy_refresh(board: Any, monkeypatch: Any) -> list[tuple[Any, ...]]:
    """Record the regions of every ``board.refresh`` call from now on (the calls still happen)."""
    calls: list[tuple[Any, ...]] = []
    original = board.refresh

    def spy(*regions: Any, **kwargs: Any) -> Any:
        calls.append(regions)
        return original(*regions, **kwargs)

    monkeypatch.setattr(board, "refresh", spy)
    return calls


def narration_of(screen: ViewerScreen) -> str:
    return "\n".join(line.text for line in screen.query_one("#v-narration", RichLog).lines)


async def wait_for(pilot: Any, app: Any, kind: type, tries: int = 400) -> Any:
    for _ in range(tries):
        if isinstance(app.screen, kind):
            await pilot.pause()
            return app.screen
        await pilot.pause(0.02)
    raise AssertionError(f"no {kind.__name__} came (on {type(app.screen).__name__})")
