"""H, a hint on the decision at hand: the search's choice highlighted, its reason under the
choices, the top three on a second H, from what the seat may see, and only where the
table allows hints.

Each hint here is worked out in the game screen's worker process, as in play, with a
few playouts (``hint_budget`` made small) so the tests stay quick.
"""

from __future__ import annotations

import asyncio
import functools
import pickle
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from railgames.app.gameui import GameUI
from railgames.app.main import RailgamesApp
from railgames.app.screens.game import GameScreen
from railgames.core import coach
from railgames.core.bots import make_bot
from railgames.core.engine import Game
from railgames.core.record import GameRecord, PlayerSpec, save_record
from railgames.core.search import Budget
from railgames.core.simulate import bot_players
from railgames.games import load_ruleset
from tests.app.driving import run_async, screen_text, truncated

GAMES = ["new-england", "paris-connection", "steel-driver", "railways-of-the-world",
         "american-rails"]
PLAYERS = [PlayerSpec(name="Ann"), PlayerSpec(name="Bob", kind="greedy"),
           PlayerSpec(name="Cat", kind="greedy")]
ITERATIONS = 10


@pytest.fixture(autouse=True)
def few_playouts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(coach, "hint_budget",
                        lambda ruleset: Budget(seconds=None, iterations=ITERATIONS))


@functools.cache
def bot_game(game_id: str, actions: int = 30) -> GameRecord:
    """Greedy bots' game, played until Ann (seat 0) has a real choice ``actions`` in."""
    ruleset = load_ruleset(game_id)
    game = Game.new(ruleset, bot_players(3, "greedy"), 3)
    bots = [make_bot("greedy", ruleset, 3 + i) for i in range(3)]
    while True:
        prompt = game.prompt()
        assert prompt is not None, "the game ended before its middle"
        if (len(game.record.actions) >= actions and prompt.seat == 0
                and len(ruleset.legal_actions(game.state)) > 2):
            break
        game.apply(bots[prompt.seat].choose(ruleset, game.view(prompt.seat), prompt))
    record = game.record.model_copy(deep=True)
    record.created = record.updated = "2025-01-01T12:00:00+00:00"
    return record


def saved_midgame(folder: Path, game_id: str) -> Path:
    """The bots' game cut where Ann is to choose, Ann now at the keyboard."""
    record = bot_game(game_id)
    cut = truncated(record, len(record.actions))
    cut.players = list(PLAYERS)
    path = folder / f"{game_id}.json"
    save_record(cut, path)
    return path


async def until(pilot: Any, check: Any, what: str, limit: float = 120) -> None:
    deadline = time.monotonic() + limit  # a bound on waiting, not a measure of speed
    while not check():
        assert time.monotonic() < deadline, what
        await pilot.pause(0.05)


def advice_of(screen: GameScreen) -> Any:
    asked = screen._hint
    return asked.advice if asked is not None else None


def as_json(action: Any) -> dict[str, Any]:
    return action if isinstance(action, dict) else action.model_dump(mode="json")


def highlighted(screen: GameScreen) -> Any:
    """The move Enter takes now: the amount in the field, or the list's highlighted line
    (on the board, the place under the cursor, which is that line)."""
    from railgames.app.widgets.amount import AmountBox

    panel, prompt = screen.panel, screen.session.prompt()
    box = panel.query_one(AmountBox)
    if box.has_focus:
        return screen.ui.amount_action(prompt, box.value)
    index = panel.query_one("#ap-options").highlighted
    assert index is not None
    key, _, leaf = panel.options[index]
    if screen.board.has_focus:
        assert screen.board.choosing and screen.board.cursor_city == key
    else:
        assert panel.query_one("#ap-options").has_focus
    return leaf


async def hint(pilot: Any, screen: GameScreen) -> Any:
    await pilot.press("H")
    await until(pilot, lambda: advice_of(screen) is not None, "the hint arrived")
    await pilot.pause()
    return advice_of(screen)


class ThreadWorker:
    """Stands in for the screen's worker process where a test is about what the screen
    does with a hint: the same function on the same (pickled) arguments, in a thread, so
    no process is started. Keeps what each hint was given."""

    def __init__(self) -> None:
        self.sent: list[tuple[Any, ...]] = []
        self.go = threading.Event()  # set: the hint may be worked out

    def install(self, monkeypatch: pytest.MonkeyPatch) -> ThreadWorker:
        from railgames.app.bot_worker import BotWorker

        def run(worker: BotWorker, fn: Any, args: tuple[Any, ...], done: Any) -> None:
            assert fn is coach.hint_for
            self.sent.append(args)
            copied = pickle.loads(pickle.dumps(args))  # what a process would be given

            def work() -> None:
                self.go.wait(60)
                result = fn(*copied)
                done(pickle.loads(pickle.dumps(result)), None)

            threading.Thread(target=work, daemon=True).start()

        monkeypatch.setattr(BotWorker, "run", run)
        monkeypatch.setattr(BotWorker, "stop", lambda worker: None)
        return self


@pytest.mark.parametrize("game", GAMES)
@run_async
async def test_h_highlights_the_advice_says_why_and_enter_plays_it(
        game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    worker = ThreadWorker().install(monkeypatch)
    app = RailgamesApp(load_path=saved_midgame(tmp_path, game), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert "H Hint" in screen_text(app).splitlines()[-1]  # the footer names it
        panel = screen.panel
        full = screen.session.state
        held = [dict(p.shares) for p in full.players] if game == "paris-connection" else []
        await pilot.press("H")
        assert panel.advice == "Thinking about your move…"
        worker.go.set()
        await until(pilot, lambda: advice_of(screen) is not None, "the hint arrived")
        await pilot.pause()
        advice = advice_of(screen)
        assert advice.iterations == ITERATIONS
        best = advice.best
        # The reason, in the game's words (the choice list's own label for the move).
        assert advice.reason.startswith(best.label)
        assert panel.advice.startswith("Hint: " + advice.reason)
        words = screen.ui.describe(screen.shown_state(), best.action, screen.names)
        if words == GameUI.describe(screen.ui, screen.shown_state(), best.action, screen.names):
            # no words of the game's for it (an amount): its log line, never its field names
            assert "=" not in best.label and screen.names[prompt_seat(screen)] in best.label
        else:
            assert words == best.label
        text = screen_text(app)
        assert "Hint: " + advice.reason[:40] in text.replace("\n", "")  # on screen, at 80x24
        # What is highlighted where the keys are (the list, the board, the amount) is the advice.
        assert as_json(highlighted(screen)) == as_json(best.action)
        # A second H: the top three, each with how far it is behind the best.
        await pilot.press("H")
        await pilot.pause()
        lines = panel.advice.splitlines()
        assert lines[0] == "Hint, the top choices:"
        assert len(lines) == 1 + min(3, len(advice.choices)) >= 3
        gains = f" ({', '.join(best.gains)})" if best.gains else ""
        assert lines[1] == f"1. {best.label}{gains}: the best"
        second = advice.choices[1]
        if round(second.behind) >= 1:
            assert lines[2].endswith(
                f"about {coach.points(screen.session.ruleset, second.behind)} worse")
        assert len(worker.sent) == 1  # the same advice, told at more length
        asked = screen._hint
        before = screen.session.played()
        await pilot.press("enter")
        await until(pilot, lambda: screen.session.played() > before, "the move was made")
        assert screen.session.record.actions[before] == as_json(best.action)
        assert screen._hint is None and panel.advice == ""  # it goes with its decision
        # The same advice arriving now (a slow worker) is for a decision gone by: dropped.
        screen.post_message(GameScreen.HintReady(asked, advice, None))
        await pilot.pause()
        await pilot.pause()
        assert screen._hint is None and panel.advice == ""
    # The search was given the view of the seat to move, and only that.
    [(ruleset, view, prompt, budget, _)] = worker.sent
    assert ruleset.id == game and prompt.seat == 0 and budget.iterations == ITERATIONS
    if game == "paris-connection":  # holdings behind screens: the others' never went
        assert all(held)  # the table holds everyone's
        assert view is not full and view.players[0].shares == held[0]
        assert view.players[1].shares is None and view.players[2].shares is None


@run_async
async def test_a_move_that_logs_nothing_still_leaves_the_hint_behind(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Choosing which action to take (Railways of the World's build) adds no line to the
    log: the table's mark alone would take the next decision for the same one."""
    ThreadWorker().install(monkeypatch).go.set()
    ruleset = load_ruleset("railways-of-the-world")
    game = Game.new(ruleset, bot_players(3, "greedy"), 3)
    bots = [make_bot("greedy", ruleset, 3 + i) for i in range(3)]
    while True:
        prompt = game.prompt()
        assert prompt is not None
        build = next((a for a in prompt.choices if a.type == "choose" and a.action == "build"),
                     None)
        if prompt.seat == 0 and build is not None and len(game.record.actions) > 6:
            break
        game.apply(bots[prompt.seat].choose(ruleset, game.view(prompt.seat), prompt))
    record = game.record.model_copy(deep=True)
    record.players = list(PLAYERS)
    save_record(record, tmp_path / "build.json")
    app = RailgamesApp(load_path=tmp_path / "build.json", bot_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await hint(pilot, screen)
        logged = len(screen.session.events_for(0))
        assert screen.submit(build)
        await pilot.pause()
        assert len(screen.session.events_for(0)) == logged  # nothing was logged
        assert screen._hint is None and screen.panel.advice == ""


@run_async
async def test_esc_puts_away_a_hint_being_worked_out(tmp_path: Path) -> None:
    app = RailgamesApp(load_path=saved_midgame(tmp_path, "steel-driver"), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("H")
        asked = screen._hint
        assert asked is not None and screen.panel.advice.startswith("Thinking")
        worker = screen._worker
        assert worker is not None and worker._pool is not None  # the worker process thinks
        await pilot.press("escape")
        assert screen._hint is None and screen.panel.advice == ""
        assert worker._pool is None  # and was ended: nothing of that hint comes back
        await asyncio.sleep(0.2)
        await pilot.pause()
        assert screen._hint is None and screen.panel.advice == ""


def test_the_help_names_h() -> None:
    from railgames.app.screens.help import KEYS_HELP

    assert "**H** a hint on your move" in KEYS_HELP


@pytest.fixture
def host(tmp_path: Path) -> Any:
    from tests.app.test_talk_panel import HostThread

    made = HostThread(tmp_path)
    yield made
    made.close()


async def at_host_table(pilot: Any, app: Any, code: str) -> GameScreen:
    """The game screen at table ``code``, once it is Ann's move there (the host's bots
    move first where they are to)."""
    app.at_table(code)
    await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen opened")
    screen = app.screen
    assert isinstance(screen, GameScreen)
    await until(pilot, lambda: screen._choosing_now(), "Ann's move came", limit=60)
    await pilot.pause()
    return screen


@run_async
async def test_h_gives_a_hint_at_a_hosts_table_that_allows_them(host: Any) -> None:
    """Over the table socket, as an SSH player's app asks the host: the advice from the
    seat's view (the only one it is sent), worked out in the screen's worker process."""
    from railgames.net.app import NetApp

    ann = host.link("ann")
    code = str(ann.request({"op": "create", "game": "new-england", "seats": 3,
                            "humans": 1})["code"])
    app = NetApp(ann)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_host_table(pilot, app, code)
        assert screen.session.why_no_hint() is None
        advice = await hint(pilot, screen)
        assert screen.panel.advice.startswith("Hint: " + advice.reason)
        assert "Hint: " + advice.reason[:40] in screen_text(app).replace("\n", "")
        assert as_json(highlighted(screen)) == as_json(advice.best.action)


@run_async
async def test_h_at_a_table_without_hints_says_why_in_one_line(host: Any) -> None:
    from railgames.net.app import NetApp

    ann = host.link("ann")
    code = str(ann.request({"op": "create", "game": "steel-driver", "seats": 3, "humans": 1,
                            "hints": False})["code"])
    app = NetApp(ann)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_host_table(pilot, app, code)
        await pilot.press("H")
        await pilot.pause()
        assert screen._hint is None and screen._worker is None  # nothing is worked out
        assert screen.panel.advice == ""
        said = str(screen.panel.query_one("#ap-reason").render())
        assert said.startswith("Hints are off at this table") and "\n" not in said


@pytest.mark.parametrize("hints", ["yes", 1, None, [True], {"on": True}])
def test_a_create_request_with_a_hostile_hints_setting_is_refused_in_one_line(
        host: Any, hints: Any) -> None:
    from railgames.core.errors import RailgamesError

    ann = host.link("ann")
    with pytest.raises(RailgamesError) as refused:
        ann.request({"op": "create", "game": "steel-driver", "seats": 3, "humans": 1,
                     "hints": hints})
    assert refused.value.reason == "hints: true or false was expected"
    assert host.service.tables == {}  # nothing was made


def prompt_seat(screen: GameScreen) -> int:
    prompt = screen.session.prompt()
    assert prompt is not None
    return prompt.seat
