"""The Paris Connection board widget: drawing, cursor, choosing, and what a change repaints."""

from __future__ import annotations

import asyncio
import copy

import pytest
from textual.app import App, ComposeResult
from textual.containers import Vertical

from railgames.app.widgets.hex_layout import CompactHexLayout
from railgames.core.engine import Game
from railgames.core.record import PlayerSpec
from railgames.games import load_ruleset, maps_for
from railgames.games.paris_connection.board import (
    CHECKERED_GLYPH,
    ParisConnectionBoard,
    ParisConnectionTrack,
)
from railgames.games.paris_connection.rules import ParisConnectionRules
from railgames.games.paris_connection.state import PCState
from tests.app.driving import board_without_colour, spy_refresh

TOWER = "10,5"
STARTS = {"red": "11,4", "yellow": "11,5", "blue": "11,6", "green": "10,6", "black": "9,5",
          "white": "10,4"}


@pytest.fixture(scope="module")
def rules() -> ParisConnectionRules:
    r = load_ruleset("paris-connection")
    assert isinstance(r, ParisConnectionRules)
    return r


@pytest.fixture
def state(rules: ParisConnectionRules) -> PCState:
    game = Game.new(rules, [PlayerSpec(name=n) for n in ("Ann", "Bob", "Cat")], seed=5)
    return copy.deepcopy(game.view(0))


def board_with(rules: ParisConnectionRules, state: PCState | None = None) -> ParisConnectionBoard:
    board = ParisConnectionBoard(rules)
    if state is not None:
        board.update_state(state)
    return board


def place(rules: ParisConnectionRules, state: PCState, at: str, *companies: str) -> None:
    col, row = (int(p) for p in at.split(","))
    h = rules.hex_at(col, row)
    assert h is not None
    state.board.setdefault(h, []).extend(companies)


class BoardApp(App[None]):
    def __init__(self, rules: ParisConnectionRules, state: PCState | None = None) -> None:
        super().__init__()
        self.rules = rules
        self.initial_state = state
        self.chosen: list[str] = []
        self.moved: list[str] = []

    def compose(self) -> ComposeResult:
        with Vertical():
            board = ParisConnectionBoard(self.rules, id="board")
            if self.initial_state is not None:
                board.update_state(self.initial_state)
            yield board
            track = ParisConnectionTrack(self.rules, id="pc-track")
            if self.initial_state is not None:
                track.update_state(self.initial_state)
            yield track

    def on_mount(self) -> None:
        self.query_one(ParisConnectionBoard).focus()

    def on_board_city_chosen(self, message: ParisConnectionBoard.CityChosen) -> None:
        self.chosen.append(message.city)

    def on_board_cursor_moved(self, message: ParisConnectionBoard.CursorMoved) -> None:
        self.moved.append(message.city)


# ------------------------------------------------------------------ drawing (no app needed)


def test_the_whole_map_takes_one_line_a_row_with_lines_left_for_names(
        rules: ParisConnectionRules) -> None:
    board = board_with(rules)
    layout = board.layout_
    assert (layout.width, layout.height) == (77, 31)  # 19 rows of hexes, 12 lines between
    for h, (x, y) in layout.centre.items():
        assert y == layout.line_of[rules.map.offset_of(h)[1]]
        row = board.row_text(y)
        for side in (-1, 1):  # a wall between two land hexes of a row
            n = layout.owner.get((x + 4 * side, y))
            if n is not None:
                assert row[x + 2 * side] in "│#", f"wall beside {layout.id_of[h]}"
    # Off the coast there is nothing: the top-left corner is sea.
    assert board.row_text(0)[:30].strip() == ""


def test_cities_show_their_worth_in_brackets_and_their_name(rules: ParisConnectionRules) -> None:
    board = board_with(rules)
    layout = board.layout_
    for city in rules.map.cities:
        hid = f"{city.col},{city.row}"
        x, y = layout.centre[layout.hex_of[hid]]
        assert board.hex_text(hid) == f"({rules.map.city_values[city.colour]})", city.name
        x0, name_y, text = layout.label_at[layout.hex_of[hid]]
        assert board.name_text(hid) == text
        # The name is in the sea beside the city, on its row; or on the line just above
        # or below it, with an arrow straight over or under the city's middle.
        if name_y == y:
            assert text == city.id and x0 in (x + 3, x - 2 - len(text)), city.name
        else:
            arrow = "↓" if name_y == y - 1 else "↑"
            assert name_y - y in (-1, 1) and text in (arrow + city.id, city.id + arrow), city.name
            assert board.row_text(name_y)[x] == arrow, city.name
        digit_style = board._rows[y][x][1]
        bracket_style = board._rows[y][x - 1][1]
        name_style = board._rows[name_y][x0][1]
        assert digit_style.color is not None and digit_style == bracket_style == name_style
    assert board.hex_text("14,17") == "(4)"  # Marseille
    assert board.hex_text(TOWER) == " ▲ "


def test_checkered_sides_are_drawn_on_the_shared_edge(rules: ParisConnectionRules) -> None:
    board = board_with(rules)
    checkered = board.layout_.marked_cells
    assert len(checkered) == len(rules.map.checkered) == 13
    for x, y in checkered:
        assert board.row_text(y)[x] == CHECKERED_GLYPH
    assert board.board_text().count(CHECKERED_GLYPH) == 13
    # Between the white and the red Paris hexes: a wall in the same row.
    x, y = board.layout_.centre[board.layout_.hex_of["10,4"]]
    assert board.row_text(y)[x + 2] == CHECKERED_GLYPH
    # Between two rows, on the line left between them: Le Havre and the hex below it.
    x, y = board.layout_.centre[board.layout_.hex_of["7,3"]]
    assert board.row_text(y + 1)[x + 1] == CHECKERED_GLYPH


def test_a_checkered_side_needs_a_line_between_its_rows(rules: ParisConnectionRules) -> None:
    m = rules.map
    with pytest.raises(ValueError, match=r"between \[7, 3\] and \[7, 4\]"):
        CompactHexLayout(m, m.checkered, [r for r in m.spaced_rows if r != 3])


def test_locomotives_show_their_letter_on_their_colour(rules: ParisConnectionRules,
                                                       state: PCState) -> None:
    place(rules, state, "11,4", "yellow")  # a second one beside red's first
    place(rules, state, "13,4", "yellow")  # Reims, a city
    board = board_with(rules, state)
    assert board.hex_text("11,4") == "R Y"
    assert board.hex_text("11,5") == " Y "
    assert board.hex_text("9,5") == " K "
    assert board.hex_text("13,4") == "(Y)"
    x, y = board.layout_.centre[board.layout_.hex_of["11,4"]]
    red, yellow = board._rows[y][x - 1][1], board._rows[y][x + 1][1]
    assert red.bgcolor is not None and yellow.bgcolor is not None and red.bgcolor != yellow.bgcolor
    assert red.bold and yellow.bold


def test_legal_hexes_are_marked_with_a_plus(rules: ParisConnectionRules, state: PCState) -> None:
    board = board_with(rules, state)
    board.set_highlight(["12,4", "13,4", "11,4"])
    assert board.hex_text("12,4") == " + "
    assert board.hex_text("13,4") == "(+)"
    assert board.hex_text("11,4") == "R +"
    board.set_highlight()
    assert "+" not in board.board_text()


def test_the_board_reads_without_colour(rules: ParisConnectionRules, state: PCState) -> None:
    """Under NO_COLOR only the characters remain, and they carry every mark."""
    board = board_with(rules, state)
    board.set_highlight(["12,4"])
    text = board_without_colour(board, 80)
    assert text.splitlines() == [board.row_text(y) for y in range(board.layout_.height)]
    assert board.hex_text("12,4") == " + " and board.hex_text("9,5") == " K "
    assert board.hex_text("13,4") == "(1)" and board.hex_text(TOWER) == " ▲ "
    assert board.name_text("13,4") == "REI↓"


def test_the_track_lists_values_supplies_and_the_hex_under_the_cursor(
        rules: ParisConnectionRules, state: PCState) -> None:
    state.value["red"] = 12
    state.supply["blue"] = 0
    track = ParisConnectionTrack(rules)
    track.cursor = "13,4"
    text = track.describe(state).plain
    assert "Value   R  12" in text
    assert " B   0" in text.splitlines()[1]
    assert "Cursor Reims (REI)  beige city, +1" in text
    track.cursor = TOWER
    assert "Eiffel Tower" in track.describe(state).plain
    # Other hexes are named as a player would: from the nearest place, never by number.
    track.cursor = "15,11"
    assert track.describe(state).plain.splitlines()[2] == "Cursor the plain east of Lyon"
    track.cursor = "11,4"
    assert track.describe(state).plain.splitlines()[2] == "Cursor north-east Paris   R "


def pc_maps() -> list[str]:
    return [map_id for map_id, _ in maps_for("paris-connection")]


@pytest.mark.parametrize("map_id", pc_maps())
def test_every_city_is_named_on_its_row_or_by_an_arrow_at_it(map_id: str) -> None:
    """On the drawn board, each city's name is beside it on its own row, or on the line
    over or under it with an arrow pointing straight at the city's middle: a name on a
    line between two rows never leaves a doubt about which row it names."""
    ruleset = load_ruleset("paris-connection", map_id)
    assert isinstance(ruleset, ParisConnectionRules)
    board = board_with(ruleset)
    layout = board.layout_
    lines = [board.row_text(y) for y in range(layout.height)]
    text = "\n".join(lines)
    for city in ruleset.map.cities:
        x, y = layout.centre[layout.hex_of[f"{city.col},{city.row}"]]
        assert lines[y][x - 1] + lines[y][x + 1] == "()", city.name
        assert text.count(city.id) == 1, f"{city.id} is written {text.count(city.id)} times"
        n = len(city.id)
        beside = {lines[y][x - 2 - n:x - 2] + lines[y][x - 2:x - 1],  # "LIL (2)"
                  lines[y][x + 2:x + 3] + lines[y][x + 3:x + 3 + n]}  # "(2) LIL"
        over = [(y - 1, "↓"), (y + 1, "↑")]
        pointed = {lines[dy][x - n:x + 1] for dy, arrow in over if 0 <= dy < len(lines)
                   if lines[dy][x] == arrow} | {lines[dy][x:x + n + 1] for dy, arrow in over
                                                 if 0 <= dy < len(lines) if lines[dy][x] == arrow}
        assert (city.id + " " in beside or " " + city.id in beside
                or city.id + "↓" in pointed or "↓" + city.id in pointed
                or city.id + "↑" in pointed or "↑" + city.id in pointed), (
            f"{city.name} ({city.id}) is not named on its row nor pointed at:\n"
            + "\n".join(lines[max(0, y - 1):y + 2]))
    # Every name drawn on a line between rows carries its arrow.
    for y in layout.gap_lines:
        for word in lines[y].split():
            if word.strip("#"):
                assert "↓" in word or "↑" in word, f"{word!r} on line {y} points at no row"


# ------------------------------------------------------------------ in an app


def test_arrows_and_hjkl_move_the_cursor_hex_to_hex(rules: ParisConnectionRules) -> None:
    async def scenario() -> None:
        app = BoardApp(rules)
        async with app.run_test(size=(90, 30)) as pilot:
            board = app.query_one(ParisConnectionBoard)
            assert board.cursor_city == TOWER
            expected = [
                ("right", "11,5"), ("left", TOWER), ("h", "9,5"), ("l", TOWER),
                ("up", None), ("up", "10,3"),  # two rows up: straight above again
                ("down", None), ("down", TOWER),
                ("j", None), ("j", "10,7"),
            ]
            for key, where in expected:
                await pilot.press(key)
                if where is not None:
                    assert board.cursor_city == where, f"after {key}"
            # Brest is the westernmost hex of its row: left leaves the cursor there.
            board.move_cursor_to("0,5")
            await pilot.press("left")
            assert board.cursor_city == "0,5"
            # The sea between Cherbourg and Le Havre is skipped.
            board.move_cursor_to("4,3")
            await pilot.press("right")
            assert board.cursor_city == "7,3"
            await pilot.pause()
            assert app.moved[:2] == ["11,5", TOWER]

    asyncio.run(scenario())


def test_enter_and_click_choose_a_hex(rules: ParisConnectionRules, state: PCState) -> None:
    async def scenario() -> None:
        app = BoardApp(rules, state)
        async with app.run_test(size=(90, 44)) as pilot:
            board = app.query_one(ParisConnectionBoard)
            await pilot.press("right", "enter")
            await pilot.pause()
            assert app.chosen == ["11,5"]
            x, y = board.layout_.centre[board.layout_.hex_of["13,4"]]
            await pilot.click(ParisConnectionBoard, offset=(x, y))
            await pilot.pause()
            assert app.chosen == ["11,5", "13,4"]
            assert board.cursor_city == "13,4"
            track = app.query_one(ParisConnectionTrack)
            assert "Reims" in track.describe(state).plain

    asyncio.run(scenario())


def test_the_cursor_is_drawn_in_reverse_video(rules: ParisConnectionRules, state: PCState) -> None:
    async def scenario() -> None:
        app = BoardApp(rules, state)
        async with app.run_test(size=(90, 44)) as pilot:
            board = app.query_one(ParisConnectionBoard)
            await pilot.press("right")
            await pilot.pause()
            x, y = board.layout_.centre[board.layout_.hex_of["11,5"]]
            cells = board._rows[y][x - 1:x + 2]
            assert [ch for ch, _ in cells] == [" ", "Y", " "]
            assert cells[0][1].reverse and cells[2][1].reverse
            assert cells[1][1].underline  # the locomotive: its colours swapped, underlined

    asyncio.run(scenario())


def test_a_cursor_move_repaints_only_the_two_hexes(
        rules: ParisConnectionRules, state: PCState, monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> None:
        app = BoardApp(rules, state)
        async with app.run_test(size=(90, 44)) as pilot:
            board = app.query_one(ParisConnectionBoard)
            await pilot.pause()
            calls = spy_refresh(board, monkeypatch)
            await pilot.press("right")
            await pilot.pause()
            assert board.cursor_city == "11,5"
            assert calls and all(regions for regions in calls), "no whole-widget refresh"
            regions = [r for regions in calls for r in regions]
            layout = board.layout_
            rows = {*layout.rows_of(layout.hex_of[TOWER]), *layout.rows_of(layout.hex_of["11,5"])}
            assert {r.y for r in regions} == rows
            assert sum(r.area for r in regions) <= 3 * 7

    asyncio.run(scenario())


def test_a_state_change_repaints_only_what_changed(
        rules: ParisConnectionRules, state: PCState, monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> None:
        app = BoardApp(rules, state)
        async with app.run_test(size=(90, 44)) as pilot:
            board = app.query_one(ParisConnectionBoard)
            await pilot.pause()
            calls = spy_refresh(board, monkeypatch)
            changed = copy.deepcopy(state)
            place(rules, changed, "12,4", "red")
            board.update_state(changed)
            x, y = board.layout_.centre[board.layout_.hex_of["12,4"]]
            regions = [r for regions in calls for r in regions]
            assert [(r.y, r.x, r.width) for r in regions] == [(y, x, 1)]
            calls.clear()
            board.update_state(changed)
            assert calls == []

    asyncio.run(scenario())
