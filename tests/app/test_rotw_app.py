"""Railways of the World in the app: a person and three bots, by keyboard, to the end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from railgames.app.boards import game_ui
from railgames.app.main import RailgamesApp
from railgames.app.saves import saves_dir
from railgames.app.screens.game import GameScreen
from railgames.app.screens.game_over import GameOverScreen
from railgames.app.screens.setup import SetupScreen
from railgames.core.engine import Game
from railgames.core.record import PlayerSpec, load_record, save_record
from railgames.core.simulate import bot_players, bots_for, play_bot_game, step_bot
from railgames.games import load_ruleset, playable_games
from railgames.games.railways_of_the_world.actions import (
    Choose,
    Deliver,
    EndBuild,
    LayTrack,
    PassAction,
    UpgradeEngine,
    Urbanize,
)
from railgames.games.railways_of_the_world.board import RotwTrack
from railgames.games.railways_of_the_world.bots import GreedyBot
from railgames.games.railways_of_the_world.state import Step
from tests.app.driving import run_async, screen_text

GAME = "railways-of-the-world"
PLAYERS = [PlayerSpec(name="Ann"), PlayerSpec(name="Ada", kind="greedy"),
           PlayerSpec(name="Ben", kind="greedy"), PlayerSpec(name="Cy", kind="greedy")]


async def pick(pilot: Any, screen: GameScreen, wanted: Any) -> None:
    """Choose ``wanted`` through the action panel with the keys: Tab to the list, arrows, Enter."""
    ui, state = screen.ui, screen.session.state
    prompt = screen.session.prompt()
    choice = next(c for c in ui.choices(state, prompt, screen.names) if c.action == wanted)
    for depth, key in enumerate(choice.keys):
        panel = screen.panel
        if len(panel.prefix) > depth:
            continue  # a level with one option is passed over by itself
        keys = [k for k, _, _ in panel.options]
        options: Any = panel.query_one("#ap-options")
        if not options.has_focus:
            await pilot.press("tab")
            await pilot.pause()
        index = keys.index(key)
        here = options.highlighted or 0
        for _ in range(abs(index - here)):
            await pilot.press("down" if index > here else "up")
        await pilot.press("enter")
        await pilot.pause()


async def my_move(pilot: Any, screen: GameScreen, wants: dict[str, int]) -> None:
    """Ann's move: play as the greedy bot would, but upgrade and urbanize once each."""
    session = screen.session
    state = session.state
    prompt = session.prompt()
    seat = prompt.seat
    if state.step is Step.AUCTION:
        await pilot.press("p")
        return
    if state.step is Step.ACTION:
        if wants["upgrade"]:
            wants["upgrade"] = 0
            await pick(pilot, screen, UpgradeEngine(seat=seat, level=state.players[seat].engine + 1))
            return
        if wants["urbanize"] and Choose(seat=seat, action="urbanize") in prompt.choices:
            wants["urbanize"] = 0
            await pick(pilot, screen, Choose(seat=seat, action="urbanize"))
            await pick(pilot, screen, session.prompt().choices[0])
            return
    action = GreedyBot(len(session.game.record.actions)).choose(
        session.ruleset, session.game.view(seat), prompt)
    if isinstance(action, PassAction | EndBuild):
        await pilot.press("p" if isinstance(action, PassAction) else "e")
        return
    await pick(pilot, screen, action)


def late_game(seed: int) -> Path:
    """Greedy bots' Eastern US game cut where its second-to-last turn begins, Ann in seat 0."""
    ruleset = load_ruleset(GAME)
    played = play_bot_game(ruleset, bot_players(4, "greedy"), seed)
    last = played.state.turn
    begins = next(e.action for e in played.log if e.kind == "turn" and e.data["turn"] == last - 1)
    record = played.record.model_copy(deep=True)
    record.players = list(PLAYERS)
    record.actions = record.actions[:begins + 1]
    path = saves_dir() / "rotw-late.json"
    save_record(record, path)
    return path


@run_async
async def test_a_person_and_three_bots_play_the_eastern_us_to_the_end_by_keyboard() -> None:
    assert GAME in [g.id for g in playable_games()]
    app = RailgamesApp(load_path=late_game(3), bot_delay=0)
    wants = {"upgrade": 1, "urbanize": 1}
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        start = len(app.session.game.record.actions)
        for _ in range(3000):
            screen = app.screen
            if isinstance(screen, GameOverScreen):
                break
            if not isinstance(screen, GameScreen):
                await pilot.pause()
                continue
            prompt = screen.session.prompt()
            if prompt is None or screen.session.is_bot(prompt.seat):
                await pilot.pause()
                continue
            before = len(screen.session.game.record.actions)
            await my_move(pilot, screen, wants)
            await pilot.pause()
            assert len(screen.session.game.record.actions) > before or app.screen is not screen, \
                f"the keys did nothing at {prompt.text}"
        assert isinstance(app.screen, GameOverScreen)
        result = app.session.game.result()
        assert result is not None
        text = screen_text(app)
        assert "Game over" in text and "Points" in text
        # Only what Ann did at the keyboard counts, not the bot's moves before the cut.
        mine = [a["type"] for a in app.session.game.record.actions[start:] if a["seat"] == 0]
        for kind in ("lay_track", "urbanize", "upgrade_engine", "deliver"):
            assert kind in mine, (kind, sorted(set(mine)))
        saved = load_record(app.session.save_path)
        assert saved.map == "rotw-eastern-us"
        assert Game.replay(load_ruleset(GAME, saved.map), saved).result() == result


@run_async
async def test_setup_offers_both_maps_and_the_auction_options() -> None:
    app = RailgamesApp(bot_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.push_screen(SetupScreen(GAME))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        text = screen_text(app)
        assert "Eastern United States" in text
        assert "First turn in seat order" in text and "dropping out pays half" in text
        from textual.widgets import Checkbox, Select

        screen.query_one("#map", Select).value = "rotw-mexico"
        await pilot.pause()
        assert screen.query_one("#count", Select).value == 3
        screen.query_one("#option-pass_pays_half", Checkbox).value = True
        await pilot.pause()
        screen.action_start()
        await pilot.pause()
        game = app.session.game
        assert game.record.map == "rotw-mexico" and len(game.players) == 3
        assert game.record.options == {"pass_pays_half": True}


@run_async
async def test_building_shows_the_legal_hexes_and_the_price_with_bonds() -> None:
    app = RailgamesApp(new_game={"game": GAME, "players": PLAYERS, "seed": 3}, bot_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("p")  # out of the auction
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        state = screen.session.state
        assert state.step is Step.ACTION and screen.session.prompt().seat == 0
        await pick(pilot, screen, Choose(seat=0, action="build"))
        lays = [a for a in screen.session.prompt().choices if isinstance(a, LayTrack)]
        assert set(screen.board.highlighted) == {f"{a.hex[0]},{a.hex[1]}" for a in lays}
        assert screen.board.has_focus and screen.board.cursor_city in screen.board.highlighted
        await pilot.press("enter")  # the hex under the cursor
        await pilot.pause()
        text = screen_text(app)
        assert "which way does the tile go?" in text and "issues 1 bond" in text
        before = len(screen.session.game.record.actions)
        await pilot.press("enter")
        await pilot.pause()
        assert screen.session.game.record.actions[before]["type"] == "lay_track"
        assert state.players[0].bonds == 1
        assert "Build (1/4 tiles" in screen_text(app)
        # A tile of one's own shows on the board as the player's letter.
        assert "A" in screen.board.board_text()
        deliveries = [a for a in screen.session.prompt().choices if isinstance(a, Deliver)]
        assert not deliveries


def _moment(seed: int, wanted: str) -> tuple[Path, int]:
    """An Eastern US game of greedy bots played only until Ann (seat 0) may first
    choose ``wanted`` (a build or a delivery), saved there with Ann at the keyboard."""
    ruleset = load_ruleset(GAME)
    game = Game.new(ruleset, list(PLAYERS), seed)
    while len(game.record.actions) < 2000:
        prompt = game.prompt()
        assert prompt is not None, f"Ann never may {wanted}"
        if (prompt.seat == 0 and game.state.step is Step.ACTION
                and Choose(seat=0, action=wanted) in prompt.choices):  # type: ignore[arg-type]
            path = saves_dir() / f"rotw-{wanted}.json"
            save_record(game.record, path)
            return path, len(game.record.actions)
        bot = GreedyBot(len(game.record.actions))
        game.apply(bot.choose(ruleset, game.view(prompt.seat), prompt))
    raise AssertionError(f"Ann never may {wanted}")


async def _point_and_enter(pilot: Any, screen: GameScreen, place: str) -> None:
    """The board has the focus; the cursor goes to ``place`` and Enter chooses it."""
    assert screen.board.has_focus, "the board should have the focus for a place"
    assert place in screen.board.highlighted
    screen.board.move_cursor_to(place)
    await pilot.press("enter")
    await pilot.pause()


@run_async
async def test_every_place_of_a_build_and_a_delivery_is_chosen_by_pointing() -> None:
    """The tile's hex and the hex it heads into, the city a cube leaves and the city it
    goes to: each by the cursor and Enter, the focus already where the next choice is."""
    for wanted in ("build", "deliver"):
        path, n = _moment(2, wanted)
        app = RailgamesApp(load_path=path, bot_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await pick(pilot, screen, Choose(seat=0, action=wanted))  # type: ignore[arg-type]
            prompt = screen.session.prompt()
            ui, state = screen.ui, screen.session.state
            choices = [c for c in ui.choices(state, prompt, screen.names)
                       if isinstance(c.action, LayTrack | Deliver)]
            # The last listed choice, so that the cursor has to move to it.
            target = choices[-1]
            await _point_and_enter(pilot, screen, target.keys[0])
            if wanted == "deliver":
                options: Any = screen.panel.query_one("#ap-options")
                if len(screen.panel.prefix) < 2:  # more than one colour: a list, focused
                    assert options.has_focus
                    keys = [k for k, _, _ in screen.panel.options]
                    for _ in range(keys.index(target.keys[1])):
                        await pilot.press("down")
                    await pilot.press("enter")
                    await pilot.pause()
            await _point_and_enter(pilot, screen, target.keys[-1 if len(target.keys) <= 3
                                                           else 2] if wanted == "deliver"
                                   else target.keys[1])
            if len(target.keys) > (3 if wanted == "deliver" else 2):
                # Two links or routes end alike: the list says which, focused.
                assert screen.panel.query_one("#ap-options").has_focus
                keys = [k for k, _, _ in screen.panel.options]
                for _ in range(keys.index(target.keys[-1])):
                    await pilot.press("down")
                await pilot.press("enter")
                await pilot.pause()
            done = screen.session.game.record.actions[n + 1]  # after Ann's choice of action
            assert done["type"] == ("lay_track" if wanted == "build" else "deliver"), done
            if wanted == "build":
                assert (done["hex"], done["exit"]) == (list(target.action.hex),
                                                       list(target.action.exit))
            else:
                assert done["city"] == target.action.city
def test_urbanizing_says_how_many_bonds_it_issues() -> None:
    rules = load_ruleset(GAME, "rotw-mexico")
    game = Game.new(rules, [PlayerSpec(name=n) for n in ("Ann", "Bob", "Cat")], 3)
    while game.state.step is Step.AUCTION:
        game.apply({"type": "pass_bid", "seat": game.state.to_act()})
    ui, state, names = game_ui(rules), game.state, ["Ann", "Bob", "Cat"]
    seat = state.to_act()
    urbanize = Choose(seat=seat, action="urbanize")
    assert urbanize in game.prompt().choices and state.players[seat].cash == 0
    # $10,000 from nothing: two bonds of $5,000, said as the engine upgrade says its own.
    assert ui.describe(state, urbanize, names) == "Urbanize a gray city, $10,000, issues 2 bonds"
    state.players[seat].cash = 6000
    assert ui.describe(state, urbanize, names).endswith("$10,000, issues 1 bond")
    state.players[seat].cash = 10_000
    assert "bond" not in ui.describe(state, urbanize, names)
    state.players[seat].cash = 0
    game.apply(urbanize)
    prompt = game.prompt()
    assert prompt.text.endswith("urbanize a gray city for $10,000, issuing 2 bonds")
    tile = next(a for a in prompt.choices if isinstance(a, Urbanize))
    assert ui.describe(state, tile, names).endswith(", $10,000, issues 2 bonds")


def test_the_status_line_says_auction_while_the_next_turns_auction_is_on() -> None:
    rules = load_ruleset(GAME, "rotw-mexico")
    game = Game.new(rules, bot_players(3, "random"), 4)
    bots = bots_for(game, 4)
    track = RotwTrack(rules)
    assert "Turn 1, auction" in track.markers_line(game.state).plain
    while game.state.step is Step.AUCTION:
        step_bot(game, bots)
    assert "Turn 1, round 1 " in track.markers_line(game.state).plain
    while game.state.turn == 1:
        step_bot(game, bots)
    state = game.state
    assert state.step is Step.AUCTION and state.round == 3  # the last turn's round, kept
    line = track.markers_line(state).plain
    assert "Turn 2, auction" in line and "round" not in line
