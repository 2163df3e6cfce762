"""American Rails in the app: a person and two bots play a whole game by keyboard."""

from __future__ import annotations

from typing import Any

from railgames.app.main import RailgamesApp
from railgames.app.screens.game import GameScreen
from railgames.app.screens.game_over import GameOverScreen
from railgames.app.screens.handoff import HandoffScreen
from railgames.core.engine import Game
from railgames.core.record import PlayerSpec, load_record
from railgames.games import load_ruleset, playable_games
from railgames.games.american_rails.state import Step
from tests.app.driving import run_async, screen_text

GAME = "american-rails"
SIZE = (120, 40)


def actions_of(app: Any) -> list[dict[str, Any]]:
    return list(app.session.game.record.actions)


async def answer(pilot: Any, app: Any, n: int) -> None:
    """Answer the prompt of the moment with keys, as a player would."""
    screen = app.screen
    step = screen.session.state.step
    if step is Step.BID:
        keys = ["enter"] if n % 3 == 0 else ["p"]
    elif step is Step.CHOOSE:
        # Walk down the list of free spaces a little, then take one.
        keys = ["tab"] * (0 if screen.panel.query_one("#ap-options").has_focus else 1)
        keys += ["down"] * (n % 6) + ["enter"]
    else:
        keys = ["enter"] * 3
    before = len(actions_of(app))
    for key in keys:
        await pilot.press(key)
        await pilot.pause()
        if len(actions_of(app)) != before or app.screen is not screen:
            return
    raise AssertionError(f"keys {keys} did nothing at {step}: {screen.session.prompt().text}")


async def play_to_the_end(pilot: Any, app: Any, max_moves: int = 1500) -> dict[str, int]:
    seen: dict[str, int] = {}
    for n in range(max_moves):
        screen = app.screen
        if isinstance(screen, GameOverScreen):
            return seen
        if isinstance(screen, HandoffScreen):
            await pilot.press("enter")
            continue
        if not isinstance(screen, GameScreen):
            await pilot.pause()
            continue
        prompt = screen.session.prompt()
        if prompt is None or screen.session.is_bot(prompt.seat):
            await pilot.pause()
            continue
        step = str(screen.session.state.step)
        seen[step] = seen.get(step, 0) + 1
        await answer(pilot, app, n)
    raise AssertionError("the game did not end")


def test_in_the_launcher() -> None:
    assert GAME in [g.id for g in playable_games()]


@run_async
async def test_a_person_and_two_bots_play_to_the_end_by_keyboard() -> None:
    players = [PlayerSpec(name="Ann"), PlayerSpec(name="Ada", kind="greedy"),
               PlayerSpec(name="Ben", kind="greedy")]
    app = RailgamesApp(new_game={"game": GAME, "players": players, "seed": 3}, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        seen = await play_to_the_end(pilot, app)
        assert {"offer", "bid", "choose"} <= set(seen), seen
        assert isinstance(app.screen, GameOverScreen)
        result = app.session.game.result()
        assert result is not None
        text = screen_text(app)
        assert "Dividends" in text
        for name, score in result.scores.items():
            assert name in text and f"${score}" in text
        saved = load_record(app.session.save_path)
        assert Game.replay(load_ruleset(GAME), saved).result() == result


def expanding_record(seed: int = 5, developed: int = 0) -> Any:
    """A greedy bots' game cut where the first seat (a person) is to place an Expand cube
    (with at least ``developed`` cities developed)."""
    from railgames.core.simulate import bot_players, play_bot_game
    from tests.app.driving import first_index, truncated

    rules = load_ruleset(GAME)
    record = play_bot_game(rules, bot_players(3, "greedy"), seed).record.model_copy(deep=True)
    record.players = [PlayerSpec(name="Ann"), PlayerSpec(name="Ada", kind="greedy"),
                      PlayerSpec(name="Ben", kind="greedy")]
    upto = first_index(record, lambda g: g.state.step == "expand" and g.state.acting == 0
                       and len(g.prompt().choices) > 3 and len(g.state.developed) >= developed)
    return truncated(record, upto)


def expanding_app(name: str) -> RailgamesApp:
    """The app on a saved game where the first seat is to expand (see expanding_record)."""
    from railgames.app.saves import saves_dir
    from railgames.core.record import save_record

    path = saves_dir() / name
    save_record(expanding_record(), path)
    return RailgamesApp(load_path=path, bot_delay=0, handoff=False)


@run_async
async def test_expanding_shows_prices_on_the_board_and_the_income_change_before_enter() -> None:
    from railgames.games.american_rails.actions import PlaceCube

    app = expanding_app("ar.json")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        state = screen.session.state
        rules = screen.session.ruleset
        prompt = screen.session.prompt()
        first = next(a for a in prompt.choices if isinstance(a, PlaceCube))
        await pilot.press("enter")  # the first company in the list
        await pilot.pause()
        board = screen.board
        assert board.expanding == first.company
        legal = {f"{a.hex[0]},{a.hex[1]}" for a in prompt.choices
                 if isinstance(a, PlaceCube) and a.company == first.company}
        assert set(board.highlighted) == legal
        # Each legal hex shows its price on the board.
        for key in legal:
            col, row = (int(p) for p in key.split(","))
            h = rules.map.hex_of(col, row)
            price = rules.cube_cost(state, h)
            top, bottom = board.hex_text(key).split("|")
            # A city keeps its code on top and shows the price in place of its values.
            assert (bottom if h in rules.map.city_at else top).startswith(f"${price}")
        # A city among them? The cursor line tells the income change before Enter.
        target = next(iter(sorted(legal)))
        board.move_cursor_to(target)
        await pilot.pause()
        col, row = (int(p) for p in target.split(","))
        outcome = rules.cube_outcome(state, first.company, rules.map.hex_of(col, row))
        text = screen_text(app)
        assert f"{rules.company_name(first.company)} here: ${outcome.cost}" in text
        before = len(actions_of(app))
        await pilot.press("enter")
        await pilot.pause()
        assert len(actions_of(app)) == before + 1
        last = actions_of(app)[-1]
        assert last["type"] == "place_cube" and last["company"] == first.company
        assert tuple(last["hex"]) == (col, row)


@run_async
async def test_a_hex_that_is_not_a_choice_gives_the_rules_reason() -> None:
    from railgames.games.american_rails.actions import PlaceCube

    app = expanding_app("ar-refused.json")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        rules, state = screen.session.ruleset, screen.session.state
        company = next(a for a in screen.session.prompt().choices if isinstance(a, PlaceCube)).company
        await pilot.press("enter")  # the first company: its hexes light up
        await pilot.pause()
        board = screen.board
        # A hex next to none of its cubes (not a city, so the board key is no city id).
        far = next(h for h in rules.map.terrain if h not in rules.map.city_at
                   and rules.placement_refusal(state, company, h) is not None
                   and "not next to" in rules.placement_refusal(state, company, h))
        board.move_cursor_to("{},{}".format(*rules.map.offset_of(far)))
        before = len(actions_of(app))
        await pilot.press("enter")
        await pilot.pause()
        assert len(actions_of(app)) == before
        shown = [n.message for n in app._notifications]
        assert any("is not next to" in m and rules.company_name(company) in m for m in shown), shown


@run_async
async def test_at_80_by_24_the_choices_stay_in_view() -> None:
    from railgames.app.saves import saves_dir
    from railgames.core.record import save_record

    path = saves_dir() / "ar-small.json"
    save_record(expanding_record(), path)
    app = RailgamesApp(load_path=path, bot_delay=0, handoff=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "which company?" in text and "End action: stop placing cubes" in text
        # The tables of companies and the track fold away for the map; i shows them.
        assert "Track  1 2 3" not in text
        await pilot.press("i")
        await pilot.pause()
        text = screen_text(app)
        assert "which company?" in text
        assert "Track  1 2 3" in text and "Inc. Treas" in text


async def _board_drawn_at(size: tuple[int, int]) -> None:
    from railgames.app.saves import saves_dir
    from railgames.core.record import save_record

    path = saves_dir() / "ar-board.json"
    save_record(expanding_record(developed=2), path)
    app = RailgamesApp(load_path=path, bot_delay=0, handoff=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        board = screen.board
        compact = board.layout_.compact
        assert compact == (size[0] < 140), "the roomy drawing where it fits, else the compact"
        state = screen.session.state
        m = screen.session.ruleset.map
        assert state.developed, "the record has developed cities"
        marks: set[str] = set()
        for city in m.cities:
            key = f"{city.col},{city.row}"
            top, bottom = board.hex_text(key).split("|")
            assert top.startswith(city.id), city.name  # its code over its values
            developed = city.id in state.developed
            sep = "■" if city.never_develop else ("^" if developed else "/")
            if key in board.highlighted:  # a city a cube may go to shows its price
                assert bottom.startswith("$") or bottom[:2].isdigit()
                continue
            if compact:
                # Two cells: the values; its state in a style that needs no colour.
                values = f"{city.full}{city.shared}"
                style = board.hex_styles(key, row=1)[0]
                assert bool(style.underline) == developed and bool(style.italic) == city.never_develop
            else:
                values = f"{city.full}{sep}{city.shared}"
            assert bottom.startswith(values), city.name
            marks.add(sep)
            letters = "".join(m.company_by_id[c].letter for c in state.hexes.get(m.city_hex[city.id], []))
            cubes = bottom[len(values):]
            room = len(cubes)
            if len(letters) <= room:
                assert cubes.strip() == letters
            else:  # the first letters, then how many more
                assert cubes == letters[:room - 1] + str(len(letters) - room + 1)
        assert marks == {"■", "^", "/"}
        glyphs = {"plains": ".", "forest": "♣", "mountain": "▲"}
        for h, terrain in m.terrain.items():
            key = "{},{}".format(*m.offset_of(h))
            if terrain in glyphs and key not in board.highlighted:  # marked hexes show a price
                assert board.hex_text(key).split("|")[0].strip() == glyphs[terrain]


@run_async
async def test_the_board_draws_values_marks_terrain_and_cubes() -> None:
    await _board_drawn_at(SIZE)


@run_async
async def test_a_wide_screen_draws_the_roomy_board() -> None:
    await _board_drawn_at((170, 45))


@run_async
async def test_from_the_launcher_a_new_game_starts_with_the_banker() -> None:
    from railgames.app.screens.launcher import LauncherScreen
    from railgames.app.screens.setup import SetupScreen

    app = RailgamesApp(bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, LauncherScreen)
        for _ in range(3):
            await pilot.press("down")
        assert app.screen.selected == GAME
        await pilot.press("enter")
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert screen.session.ruleset.id == GAME
        assert "Preparation round" in screen_text(app)
        assert screen.session.prompt().step == "Preparation round"
