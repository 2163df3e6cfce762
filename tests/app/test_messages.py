"""Picking a place that is not a choice says why, in the rules' own words."""

from __future__ import annotations

from railgames.app.boards import game_ui
from railgames.app.main import RailgamesApp
from railgames.app.saves import saves_dir
from railgames.app.screens.game import GameScreen
from railgames.core.engine import Game
from railgames.core.record import save_record
from railgames.games import load_ruleset
from railgames.games.paris_connection.ui import BUILD_PREFIX
from railgames.games.steel_driver.state import Step as SDStep
from tests.app.driving import at_ship_choice, bot_record, first_index, run_async, truncated

GENERIC = "not one of the choices"


def ne_at_shipping() -> Game:
    record = bot_record(7)
    return Game.replay(load_ruleset("new-england"), record, upto=first_index(record, at_ship_choice))


def test_new_england_says_why_a_city_cannot_ship_or_receive() -> None:
    game = ne_at_shipping()
    ui, state, prompt = game_ui(game.ruleset), game.state, game.prompt()
    rules = game.ruleset
    empty = next(c.id for c in rules.map.cities if not any(state.cubes[c.id].values()))
    reason = ui.why_not(state, prompt, [], empty)
    assert reason == f"{rules.city_name(empty)} has no commodity cube waiting to be shipped"
    ship = next(a for a in prompt.choices if a.type == "ship")
    wrong = next(c.id for c in rules.map.cities if rules.map.demand_of[c.id] != ship.colour)
    reason = ui.why_not(state, prompt, [ship.path[0], ship.colour], wrong)
    assert f"{rules.city_name(wrong)} demands {rules.map.demand_of[wrong]}, not {ship.colour}" in reason


def test_paris_connection_gives_the_rules_reason_for_a_hex() -> None:
    rules = load_ruleset("paris-connection")
    game = Game.new(rules, bot_record(3, game="paris-connection").players, seed=3)
    ui, prompt = game_ui(rules), game.prompt()
    company = next(a.company for a in prompt.choices if a.type == "build")
    legal = {tuple(a.hex) for a in prompt.choices if a.type == "build" and a.company == company}
    far = next(rules.offset(h) for h in sorted(rules.map.terrain, key=rules.offset)
               if rules.offset(h) not in legal)
    key = f"{far[0]},{far[1]}"
    reason = ui.why_not(game.state, prompt, [BUILD_PREFIX + company], key)
    assert GENERIC not in reason and "cit" not in reason.split(":")[0]
    try:
        game.apply({"type": "build", "seat": prompt.seat, "company": company, "hex": list(far)})
    except Exception as exc:  # the same words as the rules' refusal
        assert reason.endswith(str(exc.reason))
    else:
        raise AssertionError("the far hex should not be buildable")


def test_steel_driver_says_why_a_location_cannot_be_built_to() -> None:
    record = bot_record(5, game="steel-driver")
    rules = load_ruleset("steel-driver")

    def building(game: Game) -> bool:
        return game.state.step is SDStep.BUILD and bool(game.state.active_company().reached)

    game = Game.replay(rules, record, upto=first_index(record, building))
    ui, prompt, state = game_ui(rules), game.prompt(), game.state
    c = state.active_company()
    targets = {ui.target(state, a) for a in prompt.choices if a.type == "build"}
    far = next(loc.id for loc in rules.map.cities
               if loc.id not in targets and loc.id not in c.reached)
    reason = ui.why_not(state, prompt, [], far)
    assert GENERIC not in reason and rules.location_name(far) in reason


@run_async
async def test_enter_on_a_city_that_is_not_a_choice_says_why() -> None:
    game = ne_at_shipping()
    path = saves_dir() / "why.json"
    record = truncated(game.record, len(game.record.actions))
    save_record(record, path)
    app = RailgamesApp(load_path=path, bot_delay=0, handoff=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        board = screen.query_one("#board")
        assert board.has_focus
        rules = screen.session.ruleset
        state = screen.session.state
        empty = next(c.id for c in rules.map.cities if not any(state.cubes[c.id].values()))
        board.cursor_city = empty
        await pilot.press("enter")
        reason = str(screen.query_one("#ap-reason").render())
        assert "has no commodity cube waiting" in reason and GENERIC not in reason
