"""The Steel Driver board widget: drawing, cursor, choosing, and the company boxes."""

from __future__ import annotations

import asyncio
import copy

import pytest
from textual.app import App, ComposeResult
from textual.geometry import Region

from railgames.core.engine import Game
from railgames.core.record import PlayerSpec
from railgames.games import load_ruleset
from railgames.games.steel_driver.actions import BuildTrack
from railgames.games.steel_driver.board import (
    REGULAR_MARK,
    STARTING_MARK,
    SteelDriverBoard,
    SteelDriverBoxes,
    SteelDriverCompanies,
    SteelDriverLayout,
    parse_route_mark,
    route_mark,
)
from railgames.games.steel_driver.rules import SteelDriverRules
from railgames.games.steel_driver.state import SDState, Step
from tests.app.driving import spy_refresh


@pytest.fixture(scope="module")
def rules() -> SteelDriverRules:
    ruleset = load_ruleset("steel-driver")
    assert isinstance(ruleset, SteelDriverRules)
    return ruleset


@pytest.fixture
def state(rules: SteelDriverRules) -> SDState:
    game = Game.new(rules, [PlayerSpec(name=n) for n in ("Ann", "Bob", "Cat")], seed=5)
    return copy.deepcopy(game.state)


def build(rules: SteelDriverRules, state: SDState, company: str, route: str,
          start: str | None = None) -> None:
    """Lay a link straight into ``state`` (what the rules would do, without the turn order)."""
    c = state.companies[company]
    r = rules.route(route)
    state.track[route] = company
    c.links.append(route)
    if not c.reached:
        assert start is not None
        c.start, c.reached = start, [start]
    for end in (r.a, r.b):
        if end not in c.reached:
            c.reached.append(end)


class BoardApp(App[None]):
    def __init__(self, rules: SteelDriverRules, state: SDState | None = None) -> None:
        super().__init__()
        self.rules = rules
        self.initial_state = state
        self.chosen: list[str] = []
        self.moved: list[str] = []

    def compose(self) -> ComposeResult:
        board = SteelDriverBoard(self.rules, id="board")
        if self.initial_state is not None:
            board.update_state(self.initial_state)
        yield board
        yield SteelDriverCompanies(self.rules, id="sd-companies")

    def on_mount(self) -> None:
        self.query_one(SteelDriverBoard).focus()
        if self.initial_state is not None:
            self.query_one(SteelDriverCompanies).update_state(self.initial_state)

    def on_board_city_chosen(self, message: SteelDriverBoard.CityChosen) -> None:
        self.chosen.append(message.city)

    def on_board_cursor_moved(self, message: SteelDriverBoard.CursorMoved) -> None:
        self.moved.append(message.city)


# ------------------------------------------------------------------ drawing (no app needed)


def test_every_route_is_drawn_and_never_over_a_place_or_another_route(rules: SteelDriverRules) -> None:
    layout = SteelDriverLayout(rules.map)
    seen: dict[tuple[int, int], str] = {}
    for route in rules.map.links:
        path = layout.links[route.id]
        assert path.cells, f"{route.id} has a cell to show its cost and its track"
        for cell in path.cells:
            assert cell not in layout.reserved, (route.id, cell)
            assert layout.chars[cell[1]][cell[0]] == " "
            assert cell not in seen, (route.id, seen.get(cell))
            seen[cell] = route.id


def test_places_show_their_mark_value_and_colour_letter(rules: SteelDriverRules, state: SDState) -> None:
    board = SteelDriverBoard(rules)
    board.update_state(state)
    text = board.board_text()
    assert f"{STARTING_MARK}CHI50w" in text  # a starting location: a hexagon
    assert f"{REGULAR_MARK}PIT40r" in text  # a regular one: a circle, red
    assert f"{STARTING_MARK}NOL40o" in text
    assert f"{REGULAR_MARK}DEN30s" in text
    assert f"{REGULAR_MARK}BUF30k" in text
    assert board.value_text("PIT") == "40r"
    # Each place is marked by its code; the full name is on the cursor line.
    assert "Chicago" not in text


def test_an_unbuilt_route_shows_its_cost_and_built_track_its_companys_letter(
    rules: SteelDriverRules, state: SDState
) -> None:
    board = SteelDriverBoard(rules)
    board.update_state(state)
    assert "3" in board.route_text("BAL-PIT")
    assert set(board.route_text("BAL-PIT")) <= {"·", "3"}
    build(rules, state, "red", "BAL-PIT", start="BAL")
    build(rules, state, "black", "CHI-IND", start="CHI")
    board.update_state(state)
    red = board.route_text("BAL-PIT")
    assert red[0] == "R" and "3" not in red and "·" not in red
    assert set(red) <= {"R", "═", "║", "╱", "╲"}
    assert board.route_text("CHI-IND").startswith("K")  # black is K; B is blue
    col, row = board.layout_.links["BAL-PIT"].cells[0]
    style = board._rows[row][col][1]
    assert style.bgcolor is not None  # the letter sits on the company's colour


def test_a_highlighted_route_is_reversed_and_its_place_shows_the_profit(
    rules: SteelDriverRules, state: SDState
) -> None:
    board = SteelDriverBoard(rules)
    board.update_state(state)
    board.set_highlight(["BAL", "NYC"], [route_mark("BAL-PIT", "PIT", 40)])
    assert board.value_text("PIT") == "+40"
    pit = board.layout_.places["PIT"]
    assert board._rows[pit.row][pit.col0][1].underline
    cells = board.layout_.links["BAL-PIT"].cells
    assert all(board._rows[r][c][1].reverse for c, r in cells)
    # Locations to choose: their mark in reverse video, their name underlined.
    bal = board.layout_.places["BAL"]
    assert bal.mark is not None
    assert board._rows[bal.row][bal.mark[0]][1].reverse
    assert board._rows[bal.row][bal.col0][1].underline
    board.set_highlight()
    assert board.value_text("PIT") == "40r"
    assert not any(board._rows[r][c][1].reverse for c, r in cells)


def test_route_marks_carry_the_place_reached_and_the_profit() -> None:
    assert parse_route_mark(route_mark("BAL-PIT", "PIT", 40)) == ("BAL-PIT", "PIT", 40)
    assert parse_route_mark(route_mark("BAL-PHL")) == ("BAL-PHL", None, None)


def test_goods_cubes_show_at_the_end(rules: SteelDriverRules, state: SDState) -> None:
    build(rules, state, "red", "BAL-PIT", start="BAL")
    state.step = Step.CLAIM
    state.goods_on = {"PIT": "red", "BAL": "white"}
    board = SteelDriverBoard(rules)
    board.update_state(state)
    assert board.value_text("PIT") == "[r]"
    assert board.value_text("BAL") == "[w]"
    assert board.value_text("CHI") == "50w"


def test_company_boxes_list_the_order_controllers_cubes_and_profit(
    rules: SteelDriverRules, state: SDState
) -> None:
    state.companies["red"].controller = 1
    state.companies["red"].cubes = 5
    state.companies["red"].profit = 40
    state.passed = ["green"]
    boxes = SteelDriverBoxes(rules)
    table = boxes.boxes(state)
    cells = {col.header: [str(c) for c in col.cells] for col in table.columns}
    assert cells["Company"][0] == " R  Red"
    assert cells["Run by"][0] == " B  Bob"
    assert cells["Cubes"][0] == "5"
    assert cells["Profit"][0] == "$40"
    assert cells["Shares"][0] == "5"
    assert "Pass row  G" in boxes.notes(state).plain
    assert "Transcontinental not yet" in boxes.notes(state).plain
    order = SteelDriverCompanies(rules).order_line(state).plain
    assert "R   B   G   Y   K   P" in order and "Passed  G" in order


def test_the_location_line_tells_kind_value_colour_and_routes(
    rules: SteelDriverRules, state: SDState
) -> None:
    build(rules, state, "red", "BAL-PIT", start="BAL")
    line = SteelDriverCompanies(rules).location_line(state, "PIT").plain
    assert line.startswith(f"{REGULAR_MARK}Pittsburgh $40 red; reached by R")
    assert "Baltimore 3 R" in line and "Cleveland 2" in line


# ------------------------------------------------------------------ in an app


def test_arrows_move_the_cursor_the_way_they_point(rules: SteelDriverRules) -> None:
    async def scenario() -> None:
        app = BoardApp(rules)
        async with app.run_test(size=(70, 20)) as pilot:
            board = app.query_one(SteelDriverBoard)
            await pilot.pause()
            anchors = board.layout_.anchors
            for key, axis, sign in [("right", 0, 1), ("l", 0, 1), ("down", 1, 1), ("j", 1, 1),
                                    ("left", 0, -1), ("h", 0, -1), ("up", 1, -1), ("k", 1, -1)]:
                before = board.cursor_city
                await pilot.press(key)
                after = board.cursor_city
                assert after != before, key
                assert (anchors[after][axis] - anchors[before][axis]) * sign > 0, key
            await pilot.pause()
            assert app.moved[-8:] == [m for m in app.moved[-8:] if m in board.places]
            assert len(app.moved) >= 8

    asyncio.run(scenario())


def test_the_cursor_starts_on_a_starting_location_in_view(rules: SteelDriverRules) -> None:
    async def scenario() -> None:
        app = BoardApp(rules)
        async with app.run_test(size=(50, 16)) as pilot:
            board = app.query_one(SteelDriverBoard)
            await pilot.pause()
            assert rules.is_starting(board.cursor_city)
            region = board.city_region(board.cursor_city)
            view = Region(*board.scroll_offset, *board.scrollable_content_region.size)
            assert view.contains_region(region)

    asyncio.run(scenario())


def test_enter_and_click_choose_a_place(rules: SteelDriverRules, state: SDState) -> None:
    async def scenario() -> None:
        app = BoardApp(rules, state)
        async with app.run_test(size=(120, 40)) as pilot:
            board = app.query_one(SteelDriverBoard)
            board.move_cursor_to("PIT")
            await pilot.press("enter")
            await pilot.pause()
            assert app.chosen == ["PIT"]
            board.scroll_to(0, 0, animate=False, immediate=True)
            await pilot.pause()
            place = board.layout_.places["SEA"]
            await pilot.click(SteelDriverBoard, offset=(place.col0 + 1, place.row))
            await pilot.pause()
            assert app.chosen == ["PIT", "SEA"]
            assert board.cursor_city == "SEA"
            # The cursor line under the board follows the cursor.
            line = app.query_one(SteelDriverCompanies).describe(state).plain
            assert "Seattle $20 white." in line

    asyncio.run(scenario())


def test_a_cursor_move_repaints_only_the_two_labels(
    rules: SteelDriverRules, state: SDState, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        app = BoardApp(rules, state)
        async with app.run_test(size=(120, 40)) as pilot:
            board = app.query_one(SteelDriverBoard)
            board.move_cursor_to("PHL")
            await pilot.pause()
            calls = spy_refresh(board, monkeypatch)
            board.move_cursor_to("BAL")
            assert calls and all(regions for regions in calls), "no whole-widget refresh"
            rows = {r.y + board.scroll_offset.y for regions in calls for r in regions}
            assert rows == {board.places["PHL"].row, board.places["BAL"].row}
            assert sum(r.area for regions in calls for r in regions) <= len(
                "Philadelphia") + len("Baltimore")

    asyncio.run(scenario())


def test_a_build_repaints_only_the_rows_it_touches(
    rules: SteelDriverRules, state: SDState, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        app = BoardApp(rules, state)
        async with app.run_test(size=(120, 40)) as pilot:
            board = app.query_one(SteelDriverBoard)
            await pilot.pause()
            calls = spy_refresh(board, monkeypatch)
            changed = copy.deepcopy(state)
            build(rules, changed, "red", "CHI-IND", start="CHI")
            board.update_state(changed)
            rows = {r.y + board.scroll_offset.y for regions in calls for r in regions}
            assert rows == {row for _, row in board.layout_.links["CHI-IND"].cells}
            calls.clear()
            board.update_state(changed)
            assert calls == []

    asyncio.run(scenario())


def test_the_profit_shown_is_what_the_rules_add(rules: SteelDriverRules) -> None:
    """The label of the first build from Baltimore to Pittsburgh: 3 cubes, +$40."""
    from railgames.games.steel_driver.ui import SteelDriverUI

    game = Game.new(rules, [PlayerSpec(name=n) for n in ("Ann", "Bob", "Cat")], seed=5)
    state = copy.deepcopy(game.state)
    state.step = Step.BUILD
    state.cursor = 0
    state.companies["red"].controller = 0
    state.companies["red"].cubes = 5
    ui = SteelDriverUI(rules)
    action = BuildTrack(seat=0, company="red", route="BAL-PIT", start="BAL")
    assert ui.build_text(state, action, ["Ann", "Bob", "Cat"]) == "3 cubes, +$40"
    assert ui.target(state, action) == "PIT"


def test_the_cursor_lines_fit_three_lines_under_the_map_at_120x40(
    rules: SteelDriverRules, state: SDState
) -> None:
    # The worst a location can carry: every company reached it, its goods cube waits,
    # and every route is built. Under the 60-column map the lines keep to three rows
    # (the rows left under the whole map at 120x40), and wrap between routes only.
    for cid in rules.companies:
        state.companies[cid].reached = {c.id for c in rules.map.cities}
    state.goods_on = {c.id: "orange" for c in rules.map.cities}
    state.track = {route.id: "purple" for route in rules.map.links}
    panel = SteelDriverCompanies(rules)
    for loc in rules.map.cities:
        lines = panel.location_line(state, loc.id, 60).plain.split("\n")
        assert len(lines) <= 3 and max(len(line) for line in lines) <= 60, lines
        for route in rules.map.routes_at[loc.id]:
            other = rules.location_name(route.b if route.a == loc.id else route.a)
            assert any(f"{other} {route.cost}" in line for line in lines), (loc.id, other)
